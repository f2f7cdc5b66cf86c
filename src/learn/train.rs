//! `breakthrough train`: fits a network (`rulesets::nnue`) to data files on the CPU.
//!
//! A small trainer of our own, in f32: sparse inputs (only the active inputs' columns are
//! summed and given gradients), both sides' accumulators, clipped ReLU (squared by
//! default), one output read
//! as a win probability through a sigmoid. The target blends the game's result and the
//! search's score (`lambda` of the result); the loss is their squared difference; Adam;
//! a new shuffle each epoch; a held-out validation split whose loss is printed each epoch.
//! Each batch is cut into fixed chunks whose gradients are summed in order, so a seed gives
//! the same network whatever the number of threads. The weights are clipped to what the
//! engine's integers hold, then quantised.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::learn::datafile::{self, DataError};
use crate::registry::{AnyPosition, Variant};
use crate::rulesets::nnue::{self, Activation, FloatWeights, HIDDEN, Network};
use crate::util::rng::Rng;

/// How to train.
#[derive(Clone, Debug)]
pub(crate) struct TrainSettings {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) epochs: usize,
    pub(crate) batch: usize,
    pub(crate) learning_rate: f32,
    /// Share of the target that is the game's result (the rest is the search's score).
    pub(crate) lambda: f32,
    /// Share of the positions held out for validation.
    pub(crate) validation: f32,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    /// Output buckets, by the pieces left (1: one output).
    pub(crate) buckets: usize,
    pub(crate) activation: Activation,
    /// Kept in the network's description.
    pub(crate) note: String,
    /// Where the state is saved after each epoch (`None`: nowhere).
    pub(crate) checkpoint: Option<PathBuf>,
    /// Go on from the checkpoint, if there is one.
    pub(crate) resume: bool,
    /// Start from this network's weights instead of random ones (fine-tuning).
    pub(crate) init: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum TrainError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("no data files")]
    NoFiles,
    #[error("{0} has no networks (train Breakthrough or capture-only data)")]
    NoNetworks(Variant),
    #[error("data of several rule sets: {0} and {1}")]
    Mixed(Variant, Variant),
    #[error("positions of several board sizes: {0}x{1} and {2}x{3}")]
    Boards(u8, u8, u8, u8),
    #[error("only {0} positions: too few to train and validate")]
    TooFew(usize),
    #[error("{0}")]
    Checkpoint(String),
    #[error("cannot start from {path}: {why}")]
    Init { path: String, why: String },
    #[error("cannot start {threads} threads: {error}")]
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
}

/// Gradients, or weights, of the float network.
#[derive(Clone)]
struct Params {
    /// `inputs` columns of [`HIDDEN`].
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Per output bucket: the side to move's [`HIDDEN`], then the other side's.
    w2: Vec<f32>,
    /// One per output bucket.
    b2: Vec<f32>,
    /// Pieces the board starts with, which the buckets divide ([`nnue::bucket`]).
    most: usize,
    activation: Activation,
}

impl Params {
    fn zeros(inputs: usize, buckets: usize, most: usize, activation: Activation) -> Params {
        Params {
            w1: vec![0.0; inputs * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; buckets * 2 * HIDDEN],
            b2: vec![0.0; buckets],
            most,
            activation,
        }
    }

    /// Zeros of the same shape.
    fn zeros_like(&self) -> Params {
        Params::zeros(
            self.w1.len() / HIDDEN,
            self.b2.len(),
            self.most,
            self.activation,
        )
    }

    /// The output bucket of a position whose side to move sees `active` inputs (one a
    /// piece).
    fn bucket(&self, active: usize) -> usize {
        nnue::bucket(active, self.most, self.b2.len())
    }

    fn random(
        inputs: usize,
        buckets: usize,
        most: usize,
        activation: Activation,
        rng: &mut Rng,
    ) -> Params {
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut p = Params::zeros(inputs, buckets, most, activation);
        // About 30 inputs are active: spread each neuron's sum over a unit or so.
        p.w1.iter_mut().for_each(|w| *w = uniform(0.18));
        p.w2.iter_mut()
            .for_each(|w| *w = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt()));
        p
    }

    fn add(&mut self, other: &Params) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += b;
        }
    }

    /// Every value, in one order, for Adam.
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }
}

/// Training positions: active inputs of both sides, the side to move's first, and the
/// two halves of the target.
struct Samples {
    inputs: Vec<u16>,
    /// Where each position's inputs start, then the other side's, then the next's.
    starts: Vec<u32>,
    /// The search's score as a win probability for the side to move.
    score: Vec<f32>,
    /// The game's result for the side to move: 1, 0.5 or 0.
    result: Vec<f32>,
}

impl Samples {
    fn len(&self) -> usize {
        self.score.len()
    }

    fn sides(&self, i: usize) -> [&[u16]; 2] {
        let s = &self.starts[2 * i..2 * i + 3];
        [
            &self.inputs[s[0] as usize..s[1] as usize],
            &self.inputs[s[1] as usize..s[2] as usize],
        ]
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The centipawns per logit that best turn the data's scores into its results (golden
/// section search on the squared error).
fn fit_scale(scores: &[i16], results: &[f32]) -> f32 {
    let loss = |k: f32| -> f64 {
        scores
            .iter()
            .zip(results)
            .map(|(&s, &r)| f64::from((sigmoid(f32::from(s) / k) - r).powi(2)))
            .sum()
    };
    let (mut lo, mut hi) = (20.0f32, 2000.0f32);
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The float network's output for one position, with what backpropagation needs.
struct Forward {
    hidden: [[f32; HIDDEN]; 2],
    output: f32,
}

fn forward(p: &Params, sides: [&[u16]; 2]) -> Forward {
    let mut hidden = [[0f32; HIDDEN]; 2];
    for (h, active) in hidden.iter_mut().zip(sides) {
        h.copy_from_slice(&p.b1);
        for &f in active {
            let column = &p.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (x, w) in h.iter_mut().zip(column) {
                *x += w;
            }
        }
    }
    let bucket = p.bucket(sides[0].len());
    let mut output = p.b2[bucket];
    let w2 = &p.w2[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
    for (h, w2) in hidden.iter().zip(w2.chunks(HIDDEN)) {
        for (x, w) in h.iter().zip(w2) {
            output += p.activation.apply(*x) * w;
        }
    }
    Forward { hidden, output }
}

/// Adds one position's gradient to `g`; returns its loss.
fn backward(p: &Params, g: &mut Params, sides: [&[u16]; 2], target: f32) -> f32 {
    let f = forward(p, sides);
    let prob = sigmoid(f.output);
    let error = prob - target;
    let d_output = 2.0 * error * prob * (1.0 - prob);
    let bucket = p.bucket(sides[0].len());
    g.b2[bucket] += d_output;
    for (side, active) in sides.into_iter().enumerate() {
        let h = &f.hidden[side];
        let at = (2 * bucket + side) * HIDDEN;
        let w2 = &p.w2[at..at + HIDDEN];
        let gw2 = &mut g.w2[at..at + HIDDEN];
        let mut d_hidden = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            let x = h[j];
            gw2[j] += d_output * p.activation.apply(x);
            d_hidden[j] = d_output * w2[j] * p.activation.slope(x);
        }
        for (b, d) in g.b1.iter_mut().zip(&d_hidden) {
            *b += d;
        }
        for &f in active {
            let column = &mut g.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (w, d) in column.iter_mut().zip(&d_hidden) {
                *w += d;
            }
        }
    }
    error * error
}

/// Positions per chunk: the unit whose gradients are summed in a fixed order.
const CHUNK: usize = 512;
/// Largest weight kept: the engine's i16 arithmetic holds it (see `rulesets::nnue`).
const CLIP: f32 = 1.98;

/// The mean loss of `indices`, computed in fixed chunks (the same sum on any machine).
fn mean_loss(p: &Params, samples: &Samples, indices: &[u32], lambda: f32) -> f64 {
    let sums: Vec<f64> = indices
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| {
                    let i = i as usize;
                    let target = lambda * samples.result[i] + (1.0 - lambda) * samples.score[i];
                    let prob = sigmoid(forward(p, samples.sides(i)).output);
                    f64::from((prob - target).powi(2))
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / indices.len().max(1) as f64
}

/// The data files, read: what they hold and where they came from.
struct Loaded {
    variant: Variant,
    board: (u8, u8),
    /// Inputs and results (scores are set once the scale is fitted).
    samples: Samples,
    /// The search's scores, in centipawns.
    raw_scores: Vec<i16>,
    /// The files and their sizes, for the network's description.
    described: String,
}

/// Reads every file's positions: their inputs and labels.
fn load(files: &[PathBuf]) -> Result<Loaded, TrainError> {
    let mut variant = None;
    let mut board: Option<(u8, u8)> = None;
    let mut samples = Samples {
        inputs: Vec::new(),
        starts: vec![0],
        score: Vec::new(),
        result: Vec::new(),
    };
    let mut raw_scores = Vec::new();
    let mut described = Vec::new();
    // A position in more than one file is read once, from the first: the shards of one
    // datagen run, read in order, then give that run's data.
    let mut seen = std::collections::HashSet::new();
    let mut repeats = 0;
    for path in files {
        let records = datafile::read(path)?;
        let v = records.variant();
        match variant {
            Some(first) if first != v => return Err(TrainError::Mixed(first, v)),
            _ => variant = Some(v),
        }
        if v.network_inputs() == 0 {
            return Err(TrainError::NoNetworks(v));
        }
        described.push(format!("{} ({} positions)", path.display(), records.len()));
        for i in 0..records.len() {
            if !seen.insert(datafile::fingerprint(records.position_bytes(i))) {
                repeats += 1;
                continue;
            }
            let position = AnyPosition::unpack(records.position_bytes(i), v).ok_or_else(|| {
                DataError::BadRecord {
                    path: path.display().to_string(),
                    index: i,
                }
            })?;
            let size = position.board_size();
            match board {
                Some(b) if b != size => return Err(TrainError::Boards(b.0, b.1, size.0, size.1)),
                _ => board = Some(size),
            }
            let us = position.side_to_move();
            for side in [us, us.opponent()] {
                position.network_inputs(side, &mut samples.inputs);
                samples.starts.push(samples.inputs.len() as u32);
            }
            let (score, result) = records.label(i);
            raw_scores.push(score);
            samples.result.push((f32::from(result) + 1.0) / 2.0);
        }
    }
    Ok(Loaded {
        variant: variant.ok_or(TrainError::NoFiles)?,
        board: board.unwrap_or((8, 8)),
        samples,
        raw_scores,
        described: if repeats == 0 {
            described.join(", ")
        } else {
            format!("{} ({repeats} repeats read once)", described.join(", "))
        },
    })
}

/// What training gives: the network and its losses.
pub(crate) struct Trained {
    pub(crate) network: Network,
    /// The float network's evaluation of a position, in centipawns (for tests).
    #[cfg_attr(not(test), allow(dead_code))]
    float: FloatNet,
}

/// The float network, to compare with the quantised one.
struct FloatNet {
    params: Params,
    scale: f32,
}

impl FloatNet {
    #[cfg_attr(not(test), allow(dead_code))]
    fn evaluate(&self, position: &AnyPosition) -> f32 {
        let us = position.side_to_move();
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        position.network_inputs(us, &mut ours);
        position.network_inputs(us.opponent(), &mut theirs);
        forward(&self.params, [&ours, &theirs]).output * self.scale
    }
}

/// Trains a network on `settings.files`; `log` hears one line per epoch.
pub(crate) fn train(
    settings: &TrainSettings,
    mut log: impl FnMut(&str),
) -> Result<Trained, TrainError> {
    if settings.files.is_empty() {
        return Err(TrainError::NoFiles);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .build()
        .map_err(|error| TrainError::Threads {
            threads: settings.threads,
            error,
        })?;
    let mut rng = Rng::new(settings.seed);
    let data = Data::prepare(settings, &mut rng)?;
    log(&data.summary());
    let inputs = data.variant.network_inputs();
    // The pieces a board starts with: each side fills two ranks.
    let most = 4 * usize::from(data.board.0);
    let mut params = Params::random(
        inputs,
        settings.buckets,
        most,
        settings.activation,
        &mut rng,
    );
    let started_from = match &settings.init {
        Some(path) => Some(start_from(path, &mut params, &data, settings)?),
        None => None,
    };
    let mut adam = Adam::new(&params);
    let mut training = data.training.clone();
    let mut last = (0.0, 0.0);
    let mut identity = checkpoint::identity(settings, &data.described, data.training.len());
    if let Some(name) = &started_from {
        identity["init"] = serde_json::json!(name);
    }
    let mut first_epoch = 1;
    let saved = match settings.checkpoint.as_deref().filter(|_| settings.resume) {
        Some(path) => {
            let saved = checkpoint::load(path, &identity, &mut params, &mut adam)?;
            if saved.is_none() {
                log(&format!(
                    "no checkpoint at {}: training from the start",
                    path.display()
                ));
            }
            saved.map(|s| (path, s))
        }
        None => None,
    };
    if let Some((path, saved)) = saved {
        // The shuffles of the epochs done, replayed: the order and the generator are
        // where an uninterrupted run has them.
        for _ in 0..saved.epoch {
            shuffle(&mut training, &mut rng);
        }
        first_epoch = saved.epoch + 1;
        last = saved.losses;
        log(&format!(
            "went on from {} after epoch {}",
            path.display(),
            saved.epoch
        ));
    }
    for epoch in first_epoch..=settings.epochs {
        let started = Instant::now();
        shuffle(&mut training, &mut rng);
        // The rate drops tenfold for the last quarter of the epochs.
        let rate = if epoch * 4 > settings.epochs * 3 {
            settings.learning_rate / 10.0
        } else {
            settings.learning_rate
        };
        let mut train_loss = 0.0f64;
        for batch in training.chunks(settings.batch) {
            let mut grad = pool.install(|| {
                gradient(
                    &params,
                    &data.samples,
                    batch,
                    settings.lambda,
                    &mut train_loss,
                )
            });
            adam.step(&mut params, &mut grad, batch.len() as f32, rate);
        }
        let val_loss =
            pool.install(|| mean_loss(&params, &data.samples, &data.validation, settings.lambda));
        last = (train_loss / training.len() as f64, val_loss);
        log(&format!(
            "epoch {epoch}: train loss {:.6}, validation loss {val_loss:.6}, {:.1} s",
            last.0,
            started.elapsed().as_secs_f64()
        ));
        if let Some(path) = &settings.checkpoint {
            checkpoint::save(path, &identity, epoch, last, &params, &adam)?;
        }
    }
    let about = match &started_from {
        Some(name) => format!("{}; started from {name}", data.about(settings, last)),
        None => data.about(settings, last),
    };
    let network = Network::quantise(&FloatWeights {
        variant: data.variant.name(),
        files: data.board.0,
        ranks: data.board.1,
        inputs,
        scale: data.scale.round() as i32,
        activation: settings.activation,
        weights: &params.w1,
        bias: &params.b1,
        output: &params.w2,
        output_bias: &params.b2,
        about: &about,
    });
    Ok(Trained {
        network,
        float: FloatNet {
            params,
            scale: data.scale,
        },
    })
}

/// Sets `params` to the weights of the network in `path` (which must have the shape and
/// rule set being trained), its output rescaled to the data's centipawns per logit; gives
/// the network's name (`variant-digest`).
fn start_from(
    path: &Path,
    params: &mut Params,
    data: &Data,
    settings: &TrainSettings,
) -> Result<String, TrainError> {
    let refuse = |why: String| TrainError::Init {
        path: path.display().to_string(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| refuse(e.to_string()))?;
    let net = Network::from_bytes(&bytes).map_err(|e| refuse(e.to_string()))?;
    let (files, ranks) = net.board();
    if net.variant() != data.variant.name() || (files, ranks) != data.board {
        return Err(refuse(format!(
            "a network of {} on {files}x{ranks}; the data is {} on {}x{}",
            net.variant(),
            data.variant.name(),
            data.board.0,
            data.board.1
        )));
    }
    // One output may start many buckets: each begins as that output, so the network
    // starts as it was and the buckets then learn their stages apart.
    let widened = net.buckets() == 1 && settings.buckets > 1;
    if (net.buckets() != settings.buckets && !widened) || net.activation() != settings.activation {
        return Err(refuse(format!(
            "{} output buckets and activation {}; training asks for {} and {}",
            net.buckets(),
            net.activation(),
            settings.buckets,
            settings.activation
        )));
    }
    if net.inputs() * HIDDEN != params.w1.len() {
        return Err(refuse(format!("{} inputs", net.inputs())));
    }
    let floats = net.dequantise();
    // The float network's output is in logits of the data's scale: what the network
    // says in centipawns stays what it says.
    let rescale = floats.scale as f32 / data.scale;
    params.w1 = floats.weights;
    params.b1 = floats.bias;
    let copies = if widened { settings.buckets } else { 1 };
    params.w2 = (0..copies)
        .flat_map(|_| floats.output.iter().map(|w| w * rescale))
        .collect();
    params.b2 = (0..copies)
        .flat_map(|_| floats.output_bias.iter().map(|b| b * rescale))
        .collect();
    Ok(format!("{}-{}", net.variant(), net.digest()))
}

/// The positions of a training run, with their targets' scale, split into the training
/// and validation sets.
struct Data {
    variant: Variant,
    board: (u8, u8),
    samples: Samples,
    /// Centipawns per logit of the search's scores.
    scale: f32,
    /// Where the positions came from, for the network's description.
    described: String,
    training: Vec<u32>,
    validation: Vec<u32>,
}

impl Data {
    /// Reads the files, fits the scores' scale, and holds out the validation share.
    fn prepare(settings: &TrainSettings, rng: &mut Rng) -> Result<Data, TrainError> {
        let Loaded {
            variant,
            board,
            mut samples,
            raw_scores,
            described,
        } = load(&settings.files)?;
        let scale = fit_scale(&raw_scores, &samples.result);
        samples.score = raw_scores
            .iter()
            .map(|&s| sigmoid(f32::from(s) / scale))
            .collect();
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        shuffle(&mut order, rng);
        let held = ((samples.len() as f32 * settings.validation) as usize).max(1);
        if samples.len() < held + settings.batch.min(1000) {
            return Err(TrainError::TooFew(samples.len()));
        }
        let (validation, training) = (order[..held].to_vec(), order[held..].to_vec());
        Ok(Data {
            variant,
            board,
            samples,
            scale,
            described,
            training,
            validation,
        })
    }

    fn summary(&self) -> String {
        format!(
            "{} positions of {} ({}x{}): {} to train, {} to validate; {:.1} cp per logit",
            self.samples.len(),
            self.variant,
            self.board.0,
            self.board.1,
            self.training.len(),
            self.validation.len(),
            self.scale
        )
    }

    /// The network's description: its data, the settings and the final losses.
    fn about(&self, settings: &TrainSettings, (train_loss, val_loss): (f64, f64)) -> String {
        let about = format!(
            "trained by breakthrough train on {}; {} epochs, batch {}, learning rate {}, lambda {}, validation {}, seed {}; {:.1} cp per logit; final train loss {train_loss:.6}, validation loss {val_loss:.6}",
            self.described,
            settings.epochs,
            settings.batch,
            settings.learning_rate,
            settings.lambda,
            settings.validation,
            settings.seed,
            self.scale,
        );
        let about = match settings.buckets {
            1 => about,
            n => format!("{about}; {n} output buckets"),
        };
        let about = match settings.activation {
            Activation::Clipped => about,
            other => format!("{about}; activation {other}"),
        };
        match settings.note.trim() {
            "" => about,
            note => format!("{about}; {note}"),
        }
    }
}

/// The loss gradient summed over `batch`, its loss added to `loss`: fixed chunks on the
/// current rayon pool, summed in order, so the sums do not depend on the number of
/// threads.
fn gradient(
    params: &Params,
    samples: &Samples,
    batch: &[u32],
    lambda: f32,
    loss: &mut f64,
) -> Params {
    let parts: Vec<(Params, f64)> = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = params.zeros_like();
            let mut loss = 0.0f64;
            for &i in chunk {
                let i = i as usize;
                let target = lambda * samples.result[i] + (1.0 - lambda) * samples.score[i];
                loss += f64::from(backward(params, &mut g, samples.sides(i), target));
            }
            (g, loss)
        })
        .collect();
    let mut grad = params.zeros_like();
    for (g, l) in &parts {
        grad.add(g);
        *loss += l;
    }
    grad
}

/// Adam's moments and step count.
struct Adam {
    m: Params,
    v: Params,
    step: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(params: &Params) -> Adam {
        Adam {
            m: params.zeros_like(),
            v: params.zeros_like(),
            step: 0,
        }
    }

    /// One step on `params` along `grad`, summed over `n` positions, at `rate`; the
    /// weights are clipped to what the engine's integers hold.
    fn step(&mut self, params: &mut Params, grad: &mut Params, n: f32, rate: f32) {
        let (beta1, beta2) = (Adam::BETA1, Adam::BETA2);
        self.step += 1;
        let (c1, c2) = (1.0 - beta1.powi(self.step), 1.0 - beta2.powi(self.step));
        for (((w, g), m), v) in params
            .values_mut()
            .zip(grad.values_mut())
            .zip(self.m.values_mut())
            .zip(self.v.values_mut())
        {
            let g = *g / n;
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + Adam::EPSILON);
            *w = w.clamp(-CLIP, CLIP);
        }
    }
}

/// The state after an epoch, saved so that a killed run goes on to the same network.
mod checkpoint {
    use std::path::Path;

    use serde_json::{Value, json};

    use super::{Activation, Adam, Params, TrainError, TrainSettings};

    const MAGIC: &str = "BTCKPT01";

    /// What must match for a checkpoint to be gone on from (threads need not).
    pub(super) fn identity(settings: &TrainSettings, described: &str, training: usize) -> Value {
        let mut identity = json!({
            "data": described, "training": training, "epochs": settings.epochs,
            "batch": settings.batch, "lr": settings.learning_rate, "lambda": settings.lambda,
            "validation": settings.validation, "seed": settings.seed, "buckets": settings.buckets,
        });
        // Named only when not the first layer's old one, so older checkpoints still match.
        if settings.activation != Activation::Clipped {
            identity["activation"] = json!(settings.activation.to_string());
        }
        identity
    }

    pub(super) struct Saved {
        pub(super) epoch: usize,
        pub(super) losses: (f64, f64),
    }

    fn values(p: &Params) -> Vec<f32> {
        p.w1.iter()
            .chain(&p.b1)
            .chain(&p.w2)
            .chain(&p.b2)
            .copied()
            .collect()
    }

    /// Writes the checkpoint through a temporary file: a kill mid-write leaves the last one.
    pub(super) fn save(
        path: &Path,
        identity: &Value,
        epoch: usize,
        losses: (f64, f64),
        params: &Params,
        adam: &Adam,
    ) -> Result<(), TrainError> {
        let head = json!({"identity": identity, "epoch": epoch, "losses": [losses.0, losses.1], "step": adam.step});
        let mut bytes = format!("{MAGIC}\n{head}\n").into_bytes();
        for p in [params, &adam.m, &adam.v] {
            for x in values(p) {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        let fail = |e: std::io::Error| {
            TrainError::Checkpoint(format!("cannot write {}: {e}", path.display()))
        };
        std::fs::write(&temporary, bytes).map_err(fail)?;
        std::fs::rename(&temporary, path).map_err(fail)
    }

    /// Loads a checkpoint into `params` and `adam`; `None` when there is none.
    pub(super) fn load(
        path: &Path,
        identity: &Value,
        params: &mut Params,
        adam: &mut Adam,
    ) -> Result<Option<Saved>, TrainError> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(TrainError::Checkpoint(format!(
                    "cannot read {}: {e}",
                    path.display()
                )));
            }
        };
        let bad = |why: String| TrainError::Checkpoint(format!("{}: {why}", path.display()));
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        if lines.next() != Some(MAGIC.as_bytes()) {
            return Err(bad("not a training checkpoint".into()));
        }
        let head: Value = lines
            .next()
            .and_then(|l| serde_json::from_slice(l).ok())
            .ok_or_else(|| bad("no header".into()))?;
        if let Some(d) = crate::util::json_difference(&head["identity"], identity) {
            return Err(bad(format!(
                "made by another training run (it differs in {d}); remove it or train with the same settings"
            )));
        }
        let body = lines.next().unwrap_or_default();
        let n = values(params).len();
        if body.len() != 3 * n * 4 {
            return Err(bad(format!(
                "{} bytes of weights, not {}",
                body.len(),
                3 * n * 4
            )));
        }
        let mut floats = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        for p in [&mut *params, &mut adam.m, &mut adam.v] {
            for x in p.values_mut() {
                *x = floats.next().unwrap_or_default();
            }
        }
        adam.step = head["step"].as_i64().unwrap_or_default() as i32;
        let losses = &head["losses"];
        Ok(Some(Saved {
            epoch: head["epoch"].as_u64().unwrap_or_default() as usize,
            losses: (
                losses[0].as_f64().unwrap_or_default(),
                losses[1].as_f64().unwrap_or_default(),
            ),
        }))
    }
}

fn shuffle(items: &mut [u32], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::datagen;
    use crate::registry::Evaluation;
    use crate::util::scratch::Scratch;
    use std::sync::Arc;

    /// A small data file of capture-only games, in a scratch folder of the test's.
    fn data(scratch: &Scratch, games: u64) -> PathBuf {
        let out = scratch.path("games.data");
        {
            let settings = datagen::DatagenSettings {
                variant: "capture-only".parse().unwrap(),
                start: None,
                out: out.clone(),
                // 1024: what `nodes 200` searched while node limits were checked only
                // every 1024 nodes, so the data (and the measured error bound of
                // `the_quantised_network_evaluates_as_the_float_one`) stay as they were.
                nodes: Some(1024),
                depth: None,
                random_plies: 6,
                positions: None,
                games: Some(games),
                shard: crate::util::shard::Shard::WHOLE,
                threads: 2,
                seed: 9,
                hash_mb: 1,
                evaluation: Evaluation::Hand,
                // As the data was made when the test was written.
                play_out: true,
                reply_labels: false,
            };
            datagen::run(&settings, Arc::default()).unwrap();
        }
        out
    }

    fn settings(files: Vec<PathBuf>, threads: usize) -> TrainSettings {
        TrainSettings {
            files,
            epochs: 3,
            batch: 256,
            learning_rate: 0.01,
            lambda: 0.5,
            validation: 0.1,
            seed: 4,
            threads,
            buckets: 1,
            activation: Activation::Clipped,
            note: String::new(),
            checkpoint: None,
            resume: false,
            init: None,
        }
    }

    /// A run stopped after an epoch (its checkpoint written, nothing more) goes on with
    /// `resume` to the network an uninterrupted run writes; other settings are refused.
    #[test]
    fn a_stopped_run_resumes_to_the_same_network() {
        let scratch = Scratch::new("train");
        let file = data(&scratch, 40);
        let mut whole = settings(vec![file], 2);
        whole.epochs = 5;
        let uninterrupted = train(&whole, |_| {}).unwrap().network.to_bytes();
        let stopped = TrainSettings {
            checkpoint: Some(scratch.path("run.checkpoint")),
            ..whole.clone()
        };
        // Killed as the third epoch ends, before its checkpoint: two epochs are saved.
        let killed = std::panic::catch_unwind(|| {
            train(&stopped, |line| {
                assert!(!line.starts_with("epoch 3:"), "killed")
            })
            .ok();
        });
        assert!(killed.is_err());
        let mut heard = Vec::new();
        let resumed = TrainSettings {
            resume: true,
            ..stopped.clone()
        };
        let network = train(&resumed, |line| heard.push(line.to_string())).unwrap();
        assert!(
            heard.iter().any(|l| l.contains("after epoch 2")),
            "{heard:?}"
        );
        assert!(
            !heard.iter().any(|l| l.starts_with("epoch 2:")),
            "{heard:?}"
        );
        assert_eq!(network.network.to_bytes(), uninterrupted);
        let other = TrainSettings {
            lambda: 0.4,
            ..resumed
        };
        let error = train(&other, |_| {}).err().unwrap().to_string();
        assert!(error.contains("differs in lambda"), "{error}");
    }

    #[test]
    fn a_seed_gives_the_same_network_whatever_the_threads() {
        let scratch = Scratch::new("train");
        let file = data(&scratch, 40);
        let one = train(&settings(vec![file.clone()], 1), |_| {}).unwrap();
        let two = train(&settings(vec![file], 2), |_| {}).unwrap();
        assert_eq!(one.network.to_bytes(), two.network.to_bytes());
    }

    #[test]
    fn training_lowers_the_validation_loss() {
        let scratch = Scratch::new("train");
        let file = data(&scratch, 120);
        let mut losses = Vec::new();
        let mut s = settings(vec![file], 2);
        s.epochs = 6;
        train(&s, |line| {
            if let Some(v) = line.split("validation loss ").nth(1) {
                losses.push(v.split(',').next().unwrap().parse::<f64>().unwrap());
            }
        })
        .unwrap();
        assert_eq!(losses.len(), 6);
        assert!(losses[5] < losses[0], "{losses:?}");
    }

    /// The validation losses a run logs, one per epoch.
    fn losses(settings: &TrainSettings) -> (Trained, Vec<f64>) {
        let mut losses = Vec::new();
        let trained = train(settings, |line| {
            if let Some(v) = line.split("validation loss ").nth(1) {
                losses.push(v.split(',').next().unwrap().parse::<f64>().unwrap());
            }
        })
        .unwrap();
        (trained, losses)
    }

    /// `init` starts where a network is: with a learning rate too small to move it, one
    /// epoch ends at that network's loss, not at a random start's; a network of another
    /// shape is refused with one line.
    #[test]
    fn training_can_start_from_a_network() {
        let scratch = Scratch::new("train");
        let file = data(&scratch, 60);
        let base = TrainSettings {
            activation: Activation::SquaredClipped,
            ..settings(vec![file], 2)
        };
        let (trained, trained_losses) = losses(&base);
        let start = scratch.path("start.nnue");
        std::fs::write(&start, trained.network.to_bytes()).unwrap();
        let still = TrainSettings {
            init: Some(start.clone()),
            epochs: 1,
            learning_rate: 1e-6,
            ..base.clone()
        };
        let (tuned, tuned_losses) = losses(&still);
        let random_start = TrainSettings {
            epochs: 1,
            learning_rate: 1e-6,
            ..base.clone()
        };
        let (_, random_losses) = losses(&random_start);
        let (end, first, random) = (trained_losses[2], tuned_losses[0], random_losses[0]);
        assert!((first - end).abs() < 0.01 * end, "{first} against {end}");
        assert!(random > 1.2 * end, "{random} against {end}");
        let name = format!("started from capture-only-{}", trained.network.digest());
        assert!(tuned.network.about().contains(&name));
        // One output starts two buckets where it was; two do not start one.
        let widened = TrainSettings {
            buckets: 2,
            ..still.clone()
        };
        let (two, two_losses) = losses(&widened);
        assert_eq!(two.network.buckets(), 2);
        assert!(
            (two_losses[0] - end).abs() < 0.01 * end,
            "{two_losses:?} against {end}"
        );
        let start_two = scratch.path("two.nnue");
        std::fs::write(&start_two, two.network.to_bytes()).unwrap();
        let narrowed = TrainSettings {
            init: Some(start_two),
            ..still.clone()
        };
        let error = train(&narrowed, |_| {}).err().unwrap().to_string();
        assert!(
            error.contains("2 output buckets and activation screlu"),
            "{error}"
        );
        assert!(!error.contains('\n'));
        let other = TrainSettings {
            activation: Activation::Clipped,
            ..still
        };
        let error = train(&other, |_| {}).err().unwrap().to_string();
        assert!(error.contains("training asks for 1 and crelu"), "{error}");
    }

    /// The engine's integer evaluation and the trainer's float one agree on the positions
    /// of real games, within 3 centipawns plus 1% (measured: at most about 2, 0.5 on average).
    #[test]
    fn the_quantised_network_evaluates_as_the_float_one() {
        for (buckets, activation) in [
            (1, Activation::Clipped),
            (4, Activation::Clipped),
            (1, Activation::SquaredClipped),
        ] {
            quantised_against_float(buckets, activation);
        }
    }

    fn quantised_against_float(buckets: usize, activation: Activation) {
        let scratch = Scratch::new("train");
        let file = data(&scratch, 40);
        let settings = TrainSettings {
            buckets,
            activation,
            ..settings(vec![file.clone()], 2)
        };
        let trained = train(&settings, |_| {}).unwrap();
        assert_eq!(trained.network.buckets(), buckets);
        assert_eq!(trained.network.activation(), activation);
        let net: &'static Network = Box::leak(Box::new(trained.network));
        let records = datafile::read(&file).unwrap();
        let (mut worst, mut total) = (0.0f32, 0.0f32);
        for i in 0..records.len() {
            let mut position = records.get(i).unwrap().position;
            position.use_evaluation(Evaluation::Network(net)).unwrap();
            let (quantised, float) = (
                position.evaluate() as f32,
                trained.float.evaluate(&position),
            );
            let off = (quantised - float).abs();
            assert!(
                off <= 3.0 + 0.01 * float.abs(),
                "{quantised} against {float}"
            );
            worst = worst.max(off);
            total += off;
        }
        assert!(records.len() > 200);
        eprintln!(
            "worst difference {worst:.2} cp, mean {:.2}, over {} positions",
            total / records.len() as f32,
            records.len()
        );
    }
}
