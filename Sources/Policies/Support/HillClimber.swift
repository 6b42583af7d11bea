/// Caffeine's simple hill climber (simulator `hill/SimpleClimber` on `AbstractClimber`): it
/// samples the hit rate over a period of requests made while the cache is full, keeps moving
/// the admission window in one direction while the hit rate does not drop, turns around when
/// it does, shrinks its step after every sample and restarts with the full step when the hit
/// rate jumps (a workload change). O(1) per request, no allocation.
@frozen
public struct HillClimber: Sendable {
  /// Initial step as a share of the capacity (`percent-pivot`).
  @usableFromInline let stepShare: Double
  /// Sample period as a multiple of the capacity in objects (`percent-sample`).
  @usableFromInline let sampleMultiple: Double
  @usableFromInline let stepDecay: Double
  @usableFromInline let sampleDecay: Double
  @usableFromInline let restartThreshold: Double
  @usableFromInline let tolerance: Double

  @usableFromInline var initialSampleSize = 0
  @usableFromInline var initialStepSize = 0.0
  @usableFromInline var sampleSize = 0
  @usableFromInline var stepSize = 0.0
  @usableFromInline var increaseWindow = false
  @usableFromInline var previousHitRate = 0.0
  @usableFromInline var hits = 0
  @usableFromInline var misses = 0
  /// The sample size that ends the climb (Java's `Integer.MAX_VALUE`, as Caffeine uses).
  @usableFromInline static let never = Int(Int32.max)

  /// Whether ``start(objects:units:)`` has run (the cache was full once).
  public private(set) var isStarted = false

  public init(
    stepShare: Double, sampleMultiple: Double, stepDecay: Double, sampleDecay: Double, restartThreshold: Double,
    tolerance: Double
  ) {
    self.stepShare = stepShare
    self.sampleMultiple = sampleMultiple
    self.stepDecay = stepDecay
    self.sampleDecay = sampleDecay
    self.restartThreshold = restartThreshold
    self.tolerance = 100 * tolerance
  }

  /// Sizes the sample period by the number of objects a full cache holds and the step by the
  /// capacity in the cache's units (objects, or bytes).
  public mutating func start(objects: Int64, units: Int64) {
    initialSampleSize = max(1, min(Self.never, Int(sampleMultiple * Double(objects))))
    initialStepSize = stepShare * Double(units)
    sampleSize = initialSampleSize
    stepSize = initialStepSize
    isStarted = true
  }

  /// Counts one request made while the cache was full; at the end of a sample period returns
  /// how far to move the window (positive: grow it, negative: shrink it), otherwise 0.
  @inlinable
  public mutating func record(hit: Bool) -> Double {
    if hit { hits += 1 } else { misses += 1 }
    let count = hits + misses
    guard count >= sampleSize else { return 0 }
    let hitRate = Double(hits) / Double(count)
    let amount = adjust(hitRate)
    previousHitRate = hitRate
    hits = 0
    misses = 0
    stepSize *= stepDecay
    sampleSize = Int(Double(sampleSize) * sampleDecay)
    if stepSize <= 0.01 || sampleSize <= 1 { sampleSize = Self.never }
    return amount
  }

  @inlinable
  mutating func adjust(_ hitRate: Double) -> Double {
    if hitRate < previousHitRate + tolerance { increaseWindow.toggle() }
    if abs(hitRate - previousHitRate) >= restartThreshold {
      sampleSize = initialSampleSize
      stepSize = initialStepSize
    }
    return increaseWindow ? stepSize : -stepSize
  }
}
