//! The learned evaluation: a small integer network, efficiently updatable ("NNUE").
//!
//! Inputs are sparse: one per kind of piece on a square, seen from each side in turn
//! (its own pieces first, the board turned so that it moves up). A first layer of
//! [`HIDDEN`] neurons holds, for each side, the sum of its inputs' weight columns: the
//! accumulator, which a move changes by a few columns (added where pieces arrive,
//! subtracted where they leave) instead of being summed afresh. The output is a weighted
//! sum of both accumulators clipped to [0, 1] (and squared, for a network of the squared
//! activation), the side to move's first, in centipawns.
//!
//! Integers: weights and accumulators are i16, the first layer scaled by [`QA`], the
//! output weights by [`QB`], so the arithmetic is exact and the compiler turns the loops
//! into vector instructions. The file format is in engine.md ("The learned evaluation", Files).

use std::fmt;

/// Neurons of the first layer.
pub const HIDDEN: usize = 256;
/// Scale of the first layer: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights: 1.0 is `QB` (weights stay within ±2, so a product with an
/// activation and a sum of [`HIDDEN`] of them fit in an i32).
pub const QB: i32 = 512;

/// The first layer's activation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// clamp(x, 0, 1).
    #[default]
    Clipped,
    /// clamp(x, 0, 1)²: a little more each neuron can say, at about the same cost.
    SquaredClipped,
}

impl Activation {
    /// The float activation.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::Clipped => c,
            Activation::SquaredClipped => c * c,
        }
    }

    /// Its derivative at `x`.
    #[inline]
    pub fn slope(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::Clipped => 1.0,
            Activation::SquaredClipped => 2.0 * x,
        }
    }

    /// One output unit in the integers: the activation's scale times the weights'. The
    /// squared activation of `v` (of `QA`) is read as round(v² / 256), so its 1.0 is QA²/256.
    #[inline]
    fn unit(self) -> i64 {
        match self {
            Activation::Clipped => i64::from(QA * QB),
            Activation::SquaredClipped => i64::from(QA * QA * QB / 256),
        }
    }

    /// Its byte in the file's header (0: files from before it was written).
    fn code(self) -> u8 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }

    fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::Clipped),
            1 => Some(Activation::SquaredClipped),
            _ => None,
        }
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Activation::Clipped => "crelu",
            Activation::SquaredClipped => "screlu",
        })
    }
}

impl std::str::FromStr for Activation {
    type Err = NetworkError;

    fn from_str(s: &str) -> Result<Activation, NetworkError> {
        match s {
            "crelu" => Ok(Activation::Clipped),
            "screlu" => Ok(Activation::SquaredClipped),
            _ => Err(NetworkError::ActivationName(s.to_string())),
        }
    }
}

/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 8;

const MAGIC: &[u8; 8] = b"BTNNUE01";
const HEADER: usize = 48;

/// The output bucket of a position with `pieces` pieces on a board that starts with
/// `most`, for a network of `buckets` buckets: the game's stage, from many pieces to few,
/// in equal steps.
#[inline]
pub fn bucket(pieces: usize, most: usize, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    (pieces.saturating_sub(1) * buckets / most.max(1)).min(buckets - 1)
}

/// An accumulator: one side's first layer before its activation.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator(pub [i16; HIDDEN]);

impl fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Accumulator({:?}..)", &self.0[..4])
    }
}

/// A network, as loaded from its file.
pub struct Network {
    /// The rule set it was trained for (its `UCI_Variant` name) and the board.
    variant: String,
    files: u8,
    ranks: u8,
    inputs: usize,
    /// Centipawns of one output unit.
    scale: i32,
    activation: Activation,
    /// `inputs` columns of [`HIDDEN`] weights.
    weights: Vec<Accumulator>,
    bias: Accumulator,
    /// Per output bucket: the side to move's [`HIDDEN`] weights, then the other side's.
    output: Vec<[[i16; HIDDEN]; 2]>,
    output_bias: Vec<i32>,
    /// How it was made: data, settings, losses.
    about: String,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({} {}x{}, {} inputs, {HIDDEN} hidden)",
            self.variant, self.files, self.ranks, self.inputs
        )
    }
}

/// What is wrong with a network file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("not a network file (no BTNNUE01 header)")]
    NotNetwork,
    #[error("a network of {found} hidden neurons; this engine's have {HIDDEN}")]
    Hidden { found: usize },
    #[error("the file is {found} bytes, its header says {wanted}")]
    Size { found: usize, wanted: usize },
    #[error("weights scaled by {qa} and {qb}; this engine's by {QA} and {QB}")]
    Scales { qa: usize, qb: usize },
    #[error("activation {0} in the header; this engine knows 0 (crelu) and 1 (screlu)")]
    Activation(u8),
    #[error("unknown activation '{0}': crelu or screlu")]
    ActivationName(String),
    #[error("the description is not UTF-8")]
    About,
    #[error("{0} networks are loaded already; restart to load others")]
    TooMany(usize),
    #[error("{0} output buckets; at most {MAX_BUCKETS}")]
    Buckets(usize),
}

/// The float weights a trainer hands over to be quantised, laid out as [`Network`]'s.
pub struct FloatWeights<'a> {
    pub variant: &'a str,
    pub files: u8,
    pub ranks: u8,
    pub inputs: usize,
    pub scale: i32,
    pub activation: Activation,
    /// `inputs` x [`HIDDEN`], input-major.
    pub weights: &'a [f32],
    pub bias: &'a [f32],
    /// Per output bucket, 2 x [`HIDDEN`]: the side to move's, then the other side's.
    pub output: &'a [f32],
    /// One per output bucket.
    pub output_bias: &'a [f32],
    pub about: &'a str,
}

/// A network's weights as floats ([`Network::dequantise`]), in [`FloatWeights`]' layout.
pub struct Dequantised {
    /// Centipawns of one output unit.
    pub scale: i32,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
    pub output: Vec<f32>,
    pub output_bias: Vec<f32>,
}

/// The output layer's sum: `activate`d neurons of both accumulators times their
/// weights. The activations go to a buffer first and the products to 16 running lanes,
/// a shape the compiler turns into full-width vector multiply-adds (twice the speed of
/// one running sum, measured); wrapping sums in any order give the same i32.
#[inline]
fn dot(
    us: &Accumulator,
    them: &Accumulator,
    weights: &[[i16; HIDDEN]; 2],
    activate: impl Fn(i16) -> i16,
) -> i32 {
    let mut lanes = [0i32; 16];
    for (acc, weights) in [us, them].into_iter().zip(weights) {
        let mut active = [0i16; HIDDEN];
        for (v, &a) in active.iter_mut().zip(&acc.0) {
            *v = activate(a);
        }
        for (v, w) in active.chunks_exact(16).zip(weights.chunks_exact(16)) {
            for ((lane, &v), &w) in lanes.iter_mut().zip(v).zip(w) {
                *lane = lane.wrapping_add(i32::from(v) * i32::from(w));
            }
        }
    }
    lanes.iter().fold(0i32, |sum, &lane| sum.wrapping_add(lane))
}

fn quantise(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

impl Network {
    /// Quantises trained float weights.
    pub fn quantise(w: &FloatWeights) -> Network {
        let column = |values: &[f32], scale: i32| {
            let mut acc = Accumulator([0; HIDDEN]);
            for (a, &v) in acc.0.iter_mut().zip(values) {
                *a = quantise(v, scale);
            }
            acc
        };
        let output = w
            .output
            .chunks(2 * HIDDEN)
            .map(|bucket| {
                let mut out = [[0i16; HIDDEN]; 2];
                for (side, half) in out.iter_mut().enumerate() {
                    for (o, &v) in half.iter_mut().zip(&bucket[side * HIDDEN..]) {
                        *o = quantise(v, QB);
                    }
                }
                out
            })
            .collect();
        Network {
            variant: w.variant.to_string(),
            files: w.files,
            ranks: w.ranks,
            inputs: w.inputs,
            scale: w.scale,
            activation: w.activation,
            weights: w.weights.chunks(HIDDEN).map(|c| column(c, QA)).collect(),
            bias: column(w.bias, QA),
            output,
            output_bias: w
                .output_bias
                .iter()
                .map(|b| (b * w.activation.unit() as f32).round() as i32)
                .collect(),
            about: w.about.to_string(),
        }
    }

    /// The float weights this network reads as (the inverse of [`Network::quantise`], up to
    /// its rounding): where a trainer starts to fine-tune it. Laid out as [`FloatWeights`]'.
    pub fn dequantise(&self) -> Dequantised {
        let qa = QA as f32;
        let qb = QB as f32;
        let unit = self.activation.unit() as f32;
        Dequantised {
            scale: self.scale,
            weights: self
                .weights
                .iter()
                .flat_map(|column| column.0.iter().map(|&w| f32::from(w) / qa))
                .collect(),
            bias: self.bias.0.iter().map(|&b| f32::from(b) / qa).collect(),
            output: self
                .output
                .iter()
                .flat_map(|bucket| bucket.iter().flatten().map(|&w| f32::from(w) / qb))
                .collect(),
            output_bias: self.output_bias.iter().map(|&b| b as f32 / unit).collect(),
        }
    }

    /// The rule set (its `UCI_Variant` name) and board it was trained for.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    pub fn board(&self) -> (u8, u8) {
        (self.files, self.ranks)
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Output buckets (1: one output for every position).
    pub fn buckets(&self) -> usize {
        self.output.len()
    }

    /// How it was made.
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The accumulator of no input: the bias alone.
    #[inline]
    pub fn empty(&self) -> Accumulator {
        self.bias
    }

    /// Adds input `feature`'s column.
    #[inline]
    pub fn add(&self, acc: &mut Accumulator, feature: usize) {
        for (a, w) in acc.0.iter_mut().zip(&self.weights[feature].0) {
            *a = a.wrapping_add(*w);
        }
    }

    /// `acc` with input `add`'s column added and `sub`'s subtracted (a pawn's step), and
    /// `captured`'s subtracted too where there is one: one pass over the memory instead
    /// of one per column, written to a new accumulator so a copy-make copies nothing twice.
    #[inline]
    pub fn moved(
        &self,
        acc: &Accumulator,
        add: usize,
        sub: usize,
        captured: Option<usize>,
    ) -> Accumulator {
        let (add, sub) = (&self.weights[add].0, &self.weights[sub].0);
        let mut out = Accumulator([0; HIDDEN]);
        let columns = out.0.iter_mut().zip(&acc.0).zip(add).zip(sub);
        match captured {
            None => {
                for (((o, &a), &plus), &minus) in columns {
                    *o = a.wrapping_add(plus).wrapping_sub(minus);
                }
            }
            Some(captured) => {
                for ((((o, &a), &plus), &minus), &gone) in columns.zip(&self.weights[captured].0) {
                    *o = a.wrapping_add(plus).wrapping_sub(minus).wrapping_sub(gone);
                }
            }
        }
        out
    }

    /// The evaluation in centipawns from the accumulators of the side to move and of the
    /// other side, read by output bucket `bucket` ([`bucket`]).
    #[inline]
    pub fn evaluate(&self, us: &Accumulator, them: &Accumulator, bucket: usize) -> i32 {
        let bucket = bucket.min(self.output.len() - 1);
        let weights = &self.output[bucket];
        // Each arm names its activation, so the unit below is a constant there and the
        // division a multiplication.
        match self.activation {
            Activation::Clipped => {
                let sum = dot(us, them, weights, |a| a.clamp(0, QA as i16));
                self.scaled(sum, bucket, Activation::Clipped.unit())
            }
            Activation::SquaredClipped => {
                // v² fits a u16 and, rounded to 256ths, keeps the clipped one's
                // precision (1/255); all in 16-bit lanes, as vector instructions do it.
                let sum = dot(us, them, weights, |a| {
                    let v = a.clamp(0, QA as i16) as u16;
                    ((v * v + 128) >> 8) as i16
                });
                self.scaled(sum, bucket, Activation::SquaredClipped.unit())
            }
        }
    }

    /// The output bias added to `sum` and the result in centipawns, rounded. Wide: sum
    /// and scale together can pass i32.
    #[inline]
    fn scaled(&self, sum: i32, bucket: usize, unit: i64) -> i32 {
        let scaled = (i64::from(sum) + i64::from(self.output_bias[bucket])) * i64::from(self.scale);
        ((scaled + scaled.signum() * unit / 2) / unit) as i32
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let mut name = [0u8; 16];
        let n = self.variant.len().min(16);
        name[..n].copy_from_slice(&self.variant.as_bytes()[..n]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&[self.files, self.ranks]);
        out.extend_from_slice(&(self.inputs as u16).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.about.len() as u32).to_le_bytes());
        // One bucket is written as 0, as files from before buckets have it.
        out.push(if self.output.len() == 1 {
            0
        } else {
            self.output.len() as u8
        });
        out.push(self.activation.code());
        out.resize(HEADER, 0);
        out.extend_from_slice(self.about.as_bytes());
        let mut values = |v: &[i16]| {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        for column in &self.weights {
            values(&column.0);
        }
        values(&self.bias.0);
        for bucket in &self.output {
            values(&bucket[0]);
            values(&bucket[1]);
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetworkError::NotNetwork);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let variant: String = bytes[8..24]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        let (files, ranks) = (bytes[24], bytes[25]);
        let inputs = u16_at(26);
        let hidden = u16_at(28);
        if hidden != HIDDEN {
            return Err(NetworkError::Hidden { found: hidden });
        }
        let activation =
            Activation::from_code(bytes[43]).ok_or(NetworkError::Activation(bytes[43]))?;
        let (qa, qb) = (u16_at(30), u16_at(32));
        if (qa, qb) != (QA as usize, QB as usize) {
            return Err(NetworkError::Scales { qa, qb });
        }
        let scale = u32_at(34) as i32;
        let about_len = u32_at(38) as usize;
        let buckets = usize::from(bytes[42]).max(1);
        if buckets > MAX_BUCKETS {
            return Err(NetworkError::Buckets(buckets));
        }
        let wanted = HEADER
            + about_len
            + 2 * (inputs * HIDDEN + HIDDEN + buckets * 2 * HIDDEN)
            + 4 * buckets;
        if bytes.len() != wanted {
            return Err(NetworkError::Size {
                found: bytes.len(),
                wanted,
            });
        }
        let about = std::str::from_utf8(&bytes[HEADER..HEADER + about_len])
            .map_err(|_| NetworkError::About)?
            .to_string();
        let mut at = HEADER + about_len;
        let mut next = || {
            let mut acc = Accumulator([0; HIDDEN]);
            for a in acc.0.iter_mut() {
                *a = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
            }
            acc
        };
        let weights = (0..inputs).map(|_| next()).collect();
        let bias = next();
        let output = (0..buckets).map(|_| [next().0, next().0]).collect();
        let output_bias = (0..buckets).map(|k| u32_at(at + 4 * k) as i32).collect();
        Ok(Network {
            variant,
            files,
            ranks,
            inputs,
            scale,
            activation,
            weights,
            bias,
            output,
            output_bias,
            about,
        })
    }

    /// A short name of the weights: 8 hex digits of their FNV-1a hash, for file names.
    pub fn digest(&self) -> String {
        let hash = self
            .to_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
        format!("{:08x}", hash as u32)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::util::rng::Rng;

    pub(crate) fn random_network(seed: u64, inputs: usize) -> Network {
        random_bucketed(seed, inputs, 1)
    }

    pub(crate) fn random_bucketed(seed: u64, inputs: usize, buckets: usize) -> Network {
        random_with(seed, inputs, buckets, Activation::Clipped)
    }

    pub(crate) fn random_with(
        seed: u64,
        inputs: usize,
        buckets: usize,
        activation: Activation,
    ) -> Network {
        let mut rng = Rng::new(seed);
        let mut uniform = |n: usize, a: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.next_u64() % 20_001) as f32 / 10_000.0 * a - a)
                .collect()
        };
        let (weights, bias, output, output_bias) = (
            uniform(inputs * HIDDEN, 0.2),
            uniform(HIDDEN, 0.1),
            uniform(buckets * 2 * HIDDEN, 0.5),
            uniform(buckets, 0.05),
        );
        Network::quantise(&FloatWeights {
            variant: "breakthrough",
            files: 8,
            ranks: 8,
            inputs,
            scale: 300,
            activation,
            weights: &weights,
            bias: &bias,
            output: &output,
            output_bias: &output_bias,
            about: "random, for tests",
        })
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let net = random_network(1, 128);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(
            (back.variant(), back.board(), back.inputs()),
            ("breakthrough", (8, 8), 128)
        );
        assert_eq!(back.about(), "random, for tests");
        assert_eq!(net.digest(), back.digest());
        assert_eq!(
            Network::from_bytes(b"hello").unwrap_err(),
            NetworkError::NotNetwork
        );
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetworkError::Size { .. })
        ));
        assert!(bytes.len() < 100_000, "{} bytes", bytes.len());
        let bucketed = random_bucketed(3, 128, 4);
        let back = Network::from_bytes(&bucketed.to_bytes()).unwrap();
        assert_eq!(back.buckets(), 4);
        assert_eq!(back.to_bytes(), bucketed.to_bytes());
        let squared = random_with(5, 128, 2, Activation::SquaredClipped);
        let bytes = squared.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.activation(), Activation::SquaredClipped);
        assert_eq!(back.to_bytes(), bytes);
        // An activation this engine does not know, and scales that do not go with it.
        let mut unknown = bytes.clone();
        unknown[43] = 7;
        assert_eq!(
            Network::from_bytes(&unknown).unwrap_err(),
            NetworkError::Activation(7)
        );
        let mut read_plain = bytes;
        read_plain[43] = 0;
        let plain = Network::from_bytes(&read_plain).unwrap();
        assert_eq!(plain.activation(), Activation::Clipped);
        let (mut us, them) = (plain.empty(), plain.empty());
        plain.add(&mut us, 5);
        assert_ne!(
            plain.evaluate(&us, &them, 0),
            back.evaluate(&us, &them, 0),
            "the header's activation byte is read"
        );
    }

    /// The integer evaluation of either activation is the float network's (the same
    /// quantised weights, read as floats) within rounding: the result's half unit, and for
    /// the squared activation each v²'s rounding to 256ths (at most 128 / QA² a neuron).
    #[test]
    fn integer_evaluation_matches_the_float_formula() {
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            let net = random_with(6, 128, 1, activation);
            let mut us = net.empty();
            let mut them = net.empty();
            for f in [1, 9, 40, 77, 100] {
                net.add(&mut us, f);
            }
            for f in [3, 64, 90] {
                net.add(&mut them, f);
            }
            let mut float = net.output_bias[0] as f64 / activation.unit() as f64;
            let mut rounding = 0.0;
            for (acc, weights) in [&us, &them].into_iter().zip(&net.output[0]) {
                for (&a, &w) in acc.0.iter().zip(weights) {
                    let x = f64::from(a) / f64::from(QA);
                    let h = match activation {
                        Activation::Clipped => x.clamp(0.0, 1.0),
                        Activation::SquaredClipped => x.clamp(0.0, 1.0).powi(2),
                    };
                    float += h * f64::from(w) / f64::from(QB);
                    if activation == Activation::SquaredClipped {
                        rounding += 128.0 / f64::from(QA * QA) * f64::from(w.abs()) / f64::from(QB);
                    }
                }
            }
            let expected = float * f64::from(net.scale);
            let got = net.evaluate(&us, &them, 0);
            assert!(
                (f64::from(got) - expected).abs() <= 0.5 + rounding * f64::from(net.scale) + 1e-6,
                "{activation}: {got} against {expected}"
            );
            assert!(
                expected.abs() > 5.0,
                "{activation}: {expected} is too small a test"
            );
        }
        assert_eq!("screlu".parse(), Ok(Activation::SquaredClipped));
        assert!("relu".parse::<Activation>().is_err());
    }

    /// Buckets run from the most pieces to the fewest in equal steps, and a network of
    /// one bucket reads every position with it.
    #[test]
    fn buckets_follow_the_pieces_left() {
        assert_eq!(bucket(32, 32, 1), 0);
        assert_eq!(bucket(32, 32, 4), 3);
        assert_eq!(bucket(25, 32, 4), 3);
        assert_eq!(bucket(24, 32, 4), 2);
        assert_eq!(bucket(1, 32, 4), 0);
        assert_eq!(bucket(0, 32, 4), 0);
        let net = random_bucketed(4, 128, 4);
        let (us, them) = (net.empty(), net.empty());
        let values: Vec<i32> = (0..4).map(|b| net.evaluate(&us, &them, b)).collect();
        assert_eq!(net.evaluate(&us, &them, 9), values[3]);
        assert!(values.windows(2).any(|w| w[0] != w[1]), "{values:?}");
    }

    /// Quantising a network's dequantised weights gives the network back, bit for bit, so
    /// a trainer that starts from it starts exactly there.
    #[test]
    fn dequantised_weights_quantise_to_the_same_network() {
        for (buckets, activation) in [
            (1, Activation::Clipped),
            (4, Activation::Clipped),
            (2, Activation::SquaredClipped),
        ] {
            let net = random_with(7, 128, buckets, activation);
            let floats = net.dequantise();
            let again = Network::quantise(&FloatWeights {
                variant: net.variant(),
                files: 8,
                ranks: 8,
                inputs: net.inputs(),
                scale: floats.scale,
                activation,
                weights: &floats.weights,
                bias: &floats.bias,
                output: &floats.output,
                output_bias: &floats.output_bias,
                about: net.about(),
            });
            assert_eq!(again.to_bytes(), net.to_bytes(), "{buckets} {activation}");
        }
    }

    /// A step read by `moved` (and a capture) gives the accumulator of the inputs left.
    #[test]
    fn a_moved_accumulator_is_the_sum_of_the_inputs_left() {
        let net = random_network(2, 128);
        let sum = |inputs: &[usize]| {
            let mut acc = net.empty();
            for &f in inputs {
                net.add(&mut acc, f);
            }
            acc
        };
        let before = sum(&[3, 77, 100, 127]);
        assert_eq!(net.moved(&before, 5, 77, None), sum(&[3, 100, 127, 5]));
        assert_eq!(net.moved(&before, 5, 77, Some(100)), sum(&[3, 127, 5]));
        assert_ne!(net.moved(&before, 5, 77, None), before);
    }
}
