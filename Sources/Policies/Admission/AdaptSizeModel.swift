#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// AdaptSize's choice of the size parameter c: the hit rate a cache would have if it admitted
/// each object with probability e^(−size/c) (the paper's Markov model, with the
/// characteristic time found by 20 fixed-point steps), maximised over log2 c by a grid then
/// a golden-section search, with libCacheSim's constants and evaluation order (every sum in
/// object order, no reassociation). O(grid + iterations) × O(objects) × 20 per tuning.
struct AdaptSizeModel {
  static let goldenRatio = 0.61803399
  static let tolerance = 3.0e-8

  let maxIterations: Int
  /// The size parameter c in bytes (2^15 until the first tuning).
  private(set) var sizeParameter = Double(1 << 15)
  /// Scratch for the objects' sizes and admission probabilities, reused by every tuning.
  private var sizes: [Double] = []
  private var admission: [Double] = []

  init(maxIterations: Int) {
    self.maxIterations = maxIterations
  }

  /// Re-tunes c for a cache of `capacity` from the objects' decayed request counts and sizes;
  /// leaves it unchanged when the model gives NaN. Allocates nothing once its scratch has
  /// grown to the number of objects.
  mutating func tune(counts: [Double], sizes objectSizes: [Int64], capacity: UInt64) {
    sizes.removeAll(keepingCapacity: true)
    for index in objectSizes.indices { sizes.append(Double(objectSizes[index])) }
    func hitRate(_ log2c: Double) -> Double { modelHitRate(log2c: log2c, counts: counts, capacity: capacity) }
    let complement = 1 - Self.goldenRatio
    var x0 = 0.0
    var x1 = log2(Double(capacity))
    var x2 = x1
    var x3 = x1
    var best = 0.0
    var grid: Int32 = 2
    while Double(grid) < x3 {
      let candidate = hitRate(Double(grid))
      if candidate > best {
        best = candidate
        x1 = Double(grid)
      }
      grid += 4
    }
    var h1 = best
    var h2 = 0.0
    if x3 - x1 > x1 - x0 {
      x2 = x1 + complement * (x3 - x1)
      h2 = hitRate(x2)
    } else {
      x2 = x1
      h2 = h1
      x1 = x0 + complement * (x1 - x0)
      h1 = hitRate(x1)
    }
    var iteration = 0
    while iteration < maxIterations, abs(x3 - x0) > Self.tolerance * (abs(x1) + abs(x2)) {
      iteration += 1
      if h1.isNaN || h2.isNaN { break }
      if h2 > h1 {
        x0 = x1
        x1 = x2
        x2 = Self.goldenRatio * x1 + complement * x3
        h1 = h2
        h2 = hitRate(x2)
      } else {
        x3 = x2
        x2 = x1
        x1 = Self.goldenRatio * x2 + complement * x0
        h2 = h1
        h1 = hitRate(x1)
      }
    }
    if h1.isNaN || h2.isNaN { return }
    sizeParameter = h1 > h2 ? pow(2, x1) : pow(2, x2)
  }

  /// The model's request-weighted hit count for c = 2^log2c, over ``sizes``.
  private mutating func modelHitRate(log2c: Double, counts: [Double], capacity: UInt64) -> Double {
    let c = pow(2, log2c)
    var total = 0.0
    for index in counts.indices { total += counts[index] * exp(-sizes[index] / c) * sizes[index] }
    if total <= 0 { return 0 }
    let cacheSize = Double(capacity)
    var time = cacheSize / total
    admission.removeAll(keepingCapacity: true)
    for index in sizes.indices { admission.append(exp(-sizes[index] / c)) }
    for _ in 0..<20 {
      if time > 1e70 { break }
      var occupied = 0.0
      for index in counts.indices {
        let rate = counts[index] * time
        if rate > 150 {
          occupied += sizes[index]
        } else {
          let admitted = admission[index] * (exp(rate) - 1)
          occupied += sizes[index] * (admitted / (1 + admitted))
        }
      }
      time = cacheSize * time / occupied
    }
    var weighted = 0.0
    for index in counts.indices {
      let numerator = Self.p1(time, counts[index], admission[index])
      let denominator = Self.p2(time, counts[index], admission[index])
      var ratio = numerator != 0 && denominator == 0 ? 0.0 : numerator / denominator
      if ratio < 0 { ratio = 0 } else if ratio > 1 { ratio = 1 }
      weighted += counts[index] * ratio
    }
    return weighted
  }

  /// The model's hit-probability numerator for an object requested at rate `l` and admitted
  /// with probability `p`, at characteristic time `t` (libCacheSim's `oP1`).
  static func p1(_ t: Double, _ l: Double, _ p: Double) -> Double {
    let inner = 840 + 60 * l * t + 20 * l * l * t * t + l * l * l * t * t * t
    return l * p * t * inner
  }

  /// The denominator (libCacheSim's `oP2`), term by term in its order.
  static func p2(_ t: Double, _ l: Double, _ p: Double) -> Double {
    let first = 120 * l * (-3 + 7 * p) * t
    let second = 60 * l * l * (1 + p) * t * t
    let third = 4 * l * l * l * (-1 + 5 * p) * t * t * t
    let fourth = l * l * l * l * p * t * t * t * t
    return 840 + first + second + third + fourth
  }
}
