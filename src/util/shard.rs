//! Slices of a piece of work (a match's games, a datagen run's games) for jobs that run
//! apart, on a cluster or anywhere, and are merged afterwards.

/// Which slice of a piece of work a job does: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    pub(crate) index: usize,
    pub(crate) count: usize,
}

impl Shard {
    pub(crate) const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `I/N`.
    pub(crate) fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard: I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count || count > 1_000_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's contiguous run of `0..items`: together the shards cover each item
    /// once, in order (so a match's opening pair, or a datagen run's games, split cleanly).
    pub(crate) fn range(&self, items: u64) -> std::ops::Range<u64> {
        let (index, count) = (self.index as u128, self.count as u128);
        let from = (index - 1) * items as u128 / count;
        let to = index * items as u128 / count;
        from as u64..to as u64
    }

    /// Whether item `item` of `items` is this shard's.
    pub(crate) fn holds(&self, item: usize, items: usize) -> bool {
        self.range(items as u64).contains(&(item as u64))
    }

    pub(crate) fn text(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_pair_once() {
        for pairs in [0, 1, 5, 16, 17] {
            for count in 1..=6 {
                for pair in 0..pairs {
                    let holders = (1..=count)
                        .filter(|&index| Shard { index, count }.holds(pair, pairs))
                        .count();
                    assert_eq!(holders, 1, "item {pair} of {pairs}, {count} shards");
                }
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
