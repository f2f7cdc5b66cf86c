//! Checks of the crate's shape, read from its sources: dependencies point one way (each
//! top-level module uses only modules below it), and the rules of every rule set depend
//! on nothing but the bottom layer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules, bottom up: a module may use only modules of a lower rank.
const LAYERS: [(&str, u8); 14] = [
    ("util", 0),
    ("rulesets", 1),
    ("search", 2),
    ("solve", 3),
    ("registry", 4),
    ("pgn", 5),
    ("bench", 5),
    ("engine", 6),
    ("learn", 6),
    ("tourney", 6),
    ("analyze", 6),
    ("uci", 7),
    ("serve", 7),
    ("cli", 8),
];

fn rank(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, r)| r)
}

/// Every source file, with its module path (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`).
fn sources() -> Vec<(Vec<String>, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).unwrap().with_extension("");
            let mut module: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            (module, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// The module paths a source names (`crate::a::b`, `super::c`), made absolute from
/// `module`, the file's own module.
fn references(module: &[String], text: &str) -> BTreeSet<Vec<String>> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = BTreeSet::new();
    for (start, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        if start > 0 && (ident(bytes[start - 1]) || bytes[start - 1] == b':') {
            continue;
        }
        let mut end = start;
        while end < bytes.len() && (ident(bytes[end]) || bytes[end] == b':') {
            end += 1;
        }
        let parts: Vec<&str> = code[start..end]
            .split("::")
            .filter(|p| !p.is_empty())
            .collect();
        let mut path = Vec::new();
        for part in parts {
            match part {
                "crate" => path.clear(),
                "super" if path.is_empty() => path = module[..module.len() - 1].to_vec(),
                "super" => drop(path.pop()),
                name => path.push(name.to_string()),
            }
        }
        found.insert(path);
    }
    found
}

#[test]
fn dependencies_point_one_way() {
    let mut wrong = Vec::new();
    for (module, text) in sources() {
        let Some(own) = module.first().and_then(|m| rank(m)) else {
            continue;
        };
        for path in references(&module, &text) {
            let Some(target) = path.first() else { continue };
            let Some(target_rank) = rank(target) else {
                continue;
            };
            if target != &module[0] && target_rank >= own {
                wrong.push(format!("{} uses {}", module.join("::"), path.join("::")));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "upward or sideways dependencies:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = include_str!("lib.rs");
    for line in lib.lines() {
        let line = line.trim();
        let name = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
            .map(|n| n.trim_end_matches(';'));
        if let Some(name) = name.filter(|n| *n != "architecture_tests") {
            assert!(rank(name).is_some(), "module {name} is missing from LAYERS");
        }
    }
}

#[test]
fn the_rules_depend_on_the_bottom_layer_only() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (module, text) in sources() {
        let in_rules = module.len() >= 3 && module[0] == "rulesets" && module[2] == "rules";
        if !(in_rules || module == ["rulesets", "common"]) {
            continue;
        }
        checked += 1;
        for line in text
            .lines()
            .filter(|l| l.contains("crate::") || l.contains("super::super"))
        {
            let line = line.trim();
            if line.starts_with("//") {
                continue;
            }
            let allowed = ["crate::util::rng", "crate::rulesets::common"];
            let paths = line.match_indices("crate::").map(|(i, _)| &line[i..]);
            for path in paths {
                if !allowed.iter().any(|a| path.starts_with(a)) {
                    wrong.push(format!("{}: {line}", module.join("::")));
                }
            }
            if line.contains("super::super") {
                wrong.push(format!("{}: {line}", module.join("::")));
            }
        }
    }
    assert!(checked >= 10, "only {checked} rules files found");
    assert!(
        wrong.is_empty(),
        "rules reaching above the bottom layer:\n{}",
        wrong.join("\n")
    );
}

/// A source's code without its comments and without its unit tests (a file of tests, or
/// what follows `#[cfg(test)] mod tests`): tests may pick a rule set to exercise.
fn production_code(module: &[String], text: &str) -> String {
    if module
        .last()
        .is_some_and(|m| m == "tests" || m == "architecture_tests")
    {
        return String::new();
    }
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The one dispatch layer: outside the rule sets themselves, the Breakthrough solver, and
/// the registry's table and position enum, no code names a rule set's types.
#[test]
fn rule_sets_are_named_only_where_they_are_registered() {
    let allowed = |module: &[String]| {
        matches!(
            module.first().map(String::as_str),
            Some("rulesets" | "solve")
        ) || module == ["registry"]
            || module == ["registry", "position"]
    };
    let named = ["breakthrough", "doorbraak", "toy"];
    let types = ["DiagonalStep", "Geometry", "Evaluated"];
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (module, text) in sources() {
        if allowed(&module) {
            continue;
        }
        checked += 1;
        let code = production_code(&module, &text);
        for line in code.lines() {
            let names_path = named.iter().any(|n| {
                line.contains(&format!("rulesets::{n}"))
                    || (line.contains("rulesets::{")
                        && line.split(['{', ',', '}', ' ']).any(|w| w == *n))
            });
            let names_type = types.iter().any(|t| {
                line.match_indices(t).any(|(i, _)| {
                    let before = line[..i].chars().last();
                    let after = line[i + t.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            });
            if names_path || names_type {
                wrong.push(format!("{}: {}", module.join("::"), line.trim()));
            }
        }
    }
    assert!(checked >= 40, "only {checked} modules checked");
    assert!(
        wrong.is_empty(),
        "rule set types named outside the rule sets, the solver and the registry:\n{}",
        wrong.join("\n")
    );
}

/// Rules are picked by the registry's entries, never by comparing a rule set's name.
#[test]
fn no_rules_are_picked_by_name() {
    let names = ["breakthrough", "capture-only", "doorbraak", "toy"];
    let mut wrong = Vec::new();
    for (module, text) in sources() {
        let code = production_code(&module, &text);
        for line in code.lines() {
            for name in names {
                let quoted = format!("\"{name}\"");
                let compared = [
                    format!("== {quoted}"),
                    format!("!= {quoted}"),
                    format!("{quoted} =>"),
                    format!("{quoted} |"),
                    format!("| {quoted}"),
                ];
                if compared.iter().any(|c| line.contains(c.as_str())) {
                    wrong.push(format!("{}: {}", module.join("::"), line.trim()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "rules picked by a rule set's name:\n{}",
        wrong.join("\n")
    );
}
