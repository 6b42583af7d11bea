import CacheCore
import Engine
import Stats

/// This machine's file-store costs: each operation of ``FileStoreProbe`` timed over object
/// sizes and repeats, and a line `fixed + bytes / bandwidth` fitted per operation (GSL
/// weighted least squares on each size's median, weights 1 / median², so small and large
/// objects count alike), with R² and 95 % intervals, and the spread of single operations
/// around their size's median (p90 over median). What `cachelab calibrate` prints,
/// writes as a latency profile and draws.
public struct LatencyCalibration: Sendable {
  /// An operation measured.
  public enum Operation: String, Sendable, CaseIterable {
    case write
    case read
    case readAfterWrite = "read-after-write"
    case coldRead = "read-cold"
    case touch
    case delete
    case scan

    /// The latency key the fit sets in a profile (nil: none).
    var key: LatencySpec.Key? {
      switch self {
      case .write: return .diskWrite
      case .read: return .diskRead
      case .readAfterWrite: return .diskReadAfterWrite
      case .touch: return .diskTouch
      case .delete: return .diskDelete
      case .coldRead, .scan: return nil
      }
    }

    /// What was timed.
    public var meaning: String {
      switch self {
      case .write: return "atomic write: temporary file, fsync, rename, folder fsync"
      case .read: return "verified read, the file just written (in the page cache)"
      case .readAfterWrite: return "the same read straight after a 4 KiB fsynced write (the processor idled meanwhile)"
      case .coldRead: return "verified read after posix_fadvise(DONTNEED) dropped the file's pages"
      case .touch: return "header date update in place"
      case .delete: return "unlink"
      case .scan: return "start-up scan of a store of N objects (x: objects, not bytes)"
      }
    }
  }

  /// One timed operation: `size` bytes (objects in the store for a scan), `micros` µs.
  public struct Point: Sendable, Equatable {
    public var operation: Operation
    public var size: Int64
    public var micros: Int64

    public init(operation: Operation, size: Int64, micros: Int64) {
      self.operation = operation
      self.size = size
      self.micros = micros
    }
  }

  /// The line fitted to one operation.
  public struct Fit: Sendable {
    public var operation: Operation
    public var points: Int
    /// µs, with its 95 % interval (nil with too few sizes).
    public var fixed: Double
    public var fixedInterval: ClosedRange<Double>?
    /// Bytes (objects for a scan) per second; nil when the slope's interval holds 0 (the
    /// size makes no measurable difference: `fixed` is then the median of the medians).
    public var perSecond: Double?
    public var perSecondInterval: ClosedRange<Double>?
    public var rSquared: Double?
    /// Said where the fit needed help (a negative intercept clamped to 0).
    public var note: String?
    /// How far single operations stray above their size's median, to two decimals: each
    /// point's time over the median of its size's points, then the p90 of those ratios over
    /// their median; ≥ 1, nil below ``minimumSpreadPoints`` points.
    public var spread: Double?

    /// µs for an operation on `size` bytes.
    public func predict(_ size: Int64) -> Double { fixed + (perSecond.map { Double(size) / $0 * 1e6 } ?? 0) }

    /// The fit as a latency cost, with its spread where the operation's key takes one.
    public var cost: LatencyCost {
      LatencyCost(
        fixed: Int64(fixed.rounded()), bytesPerSecond: perSecond.map { Bandwidth.rounded($0) } ?? .infinity,
        spread: operation.key?.takesSpread == true ? spread ?? 1 : 1)
    }
  }

  /// Points an operation needs before its spread is estimated (a p90 of fewer says little).
  public static let minimumSpreadPoints = 20

  public var points: [Point]
  /// Whether cold reads were measured (Linux only).
  public var measuredCold: Bool

  public init(points: [Point], measuredCold: Bool) {
    self.points = points
    self.measuredCold = measuredCold
  }

  /// Timed passes of warm reads over each round's objects (half of them after a write).
  public static let readPasses = 6

  /// Object counts of the stores whose start-up scan is timed.
  public static let scanSizes: [Int64] = [16, 64, 256]

  /// Times every operation on `probe`: per repeat, over the sizes in an order shuffled by
  /// `seed` (so drift of the machine spreads over all sizes), one operation at a time: write
  /// them all, read them (``readPasses`` passes, every other one after a 4 KiB fsynced write
  /// per read: the read-after-write operation), read them cold (where pages can be dropped), touch, delete; then scans of
  /// stores of ``scanSizes`` 4 KiB objects. `progress` hears each step; `operations` limits
  /// what is timed (objects are written whenever anything is). Cost per repeat: Σ sizes
  /// written once and read ``readPasses`` + 1 times, plus `sizes.count` × ``readPasses`` / 2
  /// small writes.
  public static func measure(
    _ probe: FileStoreProbe, sizes: [Int64], repeats: Int, seed: UInt64 = 1,
    operations: Set<Operation> = Set(Operation.allCases), progress: (String) -> Void = { _ in }
  ) throws(FileError) -> LatencyCalibration {
    var points: [Point] = []
    var random = SplitMix64(seed: seed)
    let cold = FileStoreProbe.canDropPages && operations.contains(.coldRead)
    var key: UInt64 = 1
    for round in 1...repeats {
      progress("round \(round) of \(repeats)")
      var order = sizes
      for index in stride(from: order.count - 1, to: 0, by: -1) {
        order.swapAt(index, Int(random.next() % UInt64(index + 1)))
      }
      // One operation over every size at a time, as a replay runs reads back to back
      // (a read timed between two fsyncs finds the processor idle and measured 20–30 % slower).
      let objects = order.map { size -> (key: UInt64, size: Int64) in
        key += 1
        return (key, size)
      }
      for object in objects {
        let micros = try probe.write(object.key, size: object.size)
        if operations.contains(.write) { points.append(Point(operation: .write, size: object.size, micros: micros)) }
      }
      // Reads are cheap next to fsynced writes: several passes steady each size's median. A
      // replay meets reads both straight after other reads and straight after a miss's
      // fsynced write, which leaves the processor idle and the next read 50–80 % slower:
      // every other pass writes a 4 KiB object before each read, and those reads are their
      // own operation, charged by the model to a replay's first read after a write.
      var spares: [UInt64] = []
      let reads = !operations.isDisjoint(with: [.read, .readAfterWrite])
      for pass in 0..<(reads ? Self.readPasses : 0) {
        for object in objects {
          let operation: Operation = pass % 2 == 1 ? .readAfterWrite : .read
          if operation == .readAfterWrite {
            key += 1
            spares.append(key)
            _ = try probe.write(key, size: 4096)
          }
          let micros = try probe.read(object.key, size: object.size)
          if operations.contains(operation) {
            points.append(Point(operation: operation, size: object.size, micros: micros))
          }
        }
      }
      for spare in spares { _ = try probe.delete(spare, size: 4096) }
      if cold {
        for object in objects where probe.dropPages(object.key) {
          let micros = try probe.read(object.key, size: object.size)
          points.append(Point(operation: .coldRead, size: object.size, micros: micros))
        }
      }
      for object in objects where operations.contains(.touch) {
        points.append(
          Point(operation: .touch, size: object.size, micros: try probe.touch(object.key, size: object.size)))
      }
      for object in objects {
        let micros = try probe.delete(object.key, size: object.size)
        if operations.contains(.delete) { points.append(Point(operation: .delete, size: object.size, micros: micros)) }
      }
      for count in scanSizes where operations.contains(.scan) {
        var keys: [UInt64] = []
        for _ in 0..<count {
          key += 1
          keys.append(key)
          _ = try probe.write(key, size: 4096)
        }
        let scanned = try probe.scan()
        points.append(Point(operation: .scan, size: Int64(scanned.objects), micros: scanned.micros))
        for object in keys { _ = try probe.delete(object, size: 4096) }
      }
    }
    return LatencyCalibration(points: points, measuredCold: cold)
  }

  /// The fit of every measured operation, in ``Operation`` order.
  public var fits: [Fit] {
    Operation.allCases.compactMap { operation in
      Self.fit(operation, points.filter { $0.operation == operation })
    }
  }

  /// Each size of `points` with its median time, ascending by size.
  static func medians(_ points: [Point]) -> [(size: Int64, micros: Double)] {
    Array(Set(points.map(\.size))).sorted().map { size in
      (size, SampleSummary(points.filter { $0.size == size }.map { Double($0.micros) }).percentile(50))
    }
  }

  /// The fitted disk costs as latency settings: `disk-write`, `disk-read` (warm: a replay reads
  /// files it wrote recently), `disk-touch`, `disk-delete`.
  public var spec: LatencySpec {
    var spec = LatencySpec()
    for fit in fits {
      guard let key = fit.operation.key else { continue }
      // A fitted cost always prints as a SPEC value that reads back.
      try? spec.set(key, text: fit.cost.description)
    }
    return spec
  }

  /// The line through each size's median time, with the spread of single operations.
  static func fit(_ operation: Operation, _ points: [Point]) -> Fit? {
    guard !points.isEmpty else { return nil }
    let sizeMedians = medians(points)
    var result = line(operation, points: points.count, sizeMedians)
    let median = Dictionary(uniqueKeysWithValues: sizeMedians.map { ($0.size, $0.micros) })
    let ratios = points.compactMap { point in
      median[point.size].flatMap { $0 > 0 ? Double(point.micros) / $0 : nil }
    }
    if ratios.count >= minimumSpreadPoints {
      let summary = SampleSummary(ratios)
      let median = summary.percentile(50)
      if median > 0 {
        result.spread = min(max((summary.percentile(90) / median * 100).rounded() / 100, 1), LatencyCost.maximumSpread)
      }
    }
    return result
  }

  /// The line through `medianPoints`, each size's median time, of `points` timed.
  static func line(_ operation: Operation, points: Int, _ medianPoints: [(size: Int64, micros: Double)]) -> Fit {
    let sizes = medianPoints.map(\.size)
    let medians = medianPoints.map(\.micros)
    let overall = SampleSummary(medians).percentile(50)
    var result = Fit(operation: operation, points: points, fixed: max(overall, 0))
    guard sizes.count >= 3,
      let line = LinearFit(
        x: sizes.map(Double.init), y: medians, weights: medians.map { 1 / max($0 * $0, 1) }),
      let intervals = line.intervals()
    else { return result }
    result.rSquared = line.rSquared
    // A slope whose interval holds 0 measures nothing: the size makes no difference.
    guard intervals.slope.lowerBound > 0 else { return result }
    result.perSecond = 1e6 / line.slope
    result.perSecondInterval = (1e6 / intervals.slope.upperBound)...(1e6 / intervals.slope.lowerBound)
    result.fixed = line.intercept
    result.fixedInterval = intervals.intercept
    if line.intercept < 0 {
      result.fixed = 0
      result.note = "intercept \(Decimal.fixed(line.intercept, 1)) µs clamped to 0"
    }
    return result
  }
}
