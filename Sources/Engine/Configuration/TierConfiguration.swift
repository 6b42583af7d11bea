import CacheCore

/// What a tier's capacity counts.
public enum CapacityUnit: String, Sendable, CaseIterable {
  /// Bytes of the objects (disk tiers may round up to blocks).
  case bytes
  /// Objects (every object counts 1).
  case count
  /// The caller's cost (the trace's `cost` column, else the size), e.g. decoded image bytes.
  case cost
}

/// One tier of a cache engine: an eviction policy over a capacity, plus the tier's own
/// rules for admission, expiry and dates.
public struct TierConfiguration: Sendable, CustomStringConvertible {
  /// The registered policy that orders evictions within the capacity.
  public var policy: PolicySpec
  /// Capacity in ``unit``s; `Int64.max` means unlimited.
  public var capacity: Int64
  /// A capacity given as a fraction of the trace's working set (`lru:0.1`), which the replayer
  /// resolves into ``capacity`` before the run (nil: ``capacity`` as given).
  public var fraction: Double?
  public var unit: CapacityUnit
  /// Whether stored objects may be served.
  public var expiry: ExpiryModel
  /// Admit only objects smaller than this fraction of the capacity (nil: anything that fits).
  public var admissionLimit: Double?
  /// Disk allocation block: sizes round up to a multiple (0: logical bytes).
  public var blockSize: Int64
  /// Whether a read updates the object's access date (and a sliding expiry).
  public var readsUpdateAccessDate: Bool

  public init(
    policy: PolicySpec, capacity: Int64, unit: CapacityUnit = .bytes, expiry: ExpiryModel = .none,
    admissionLimit: Double? = nil, blockSize: Int64 = 0, readsUpdateAccessDate: Bool = true
  ) {
    self.policy = policy
    self.capacity = capacity
    self.unit = unit
    self.expiry = expiry
    self.admissionLimit = admissionLimit
    self.blockSize = blockSize
    self.readsUpdateAccessDate = readsUpdateAccessDate
  }

  /// `policy:SIZE` (or `policy:params:SIZE`), with `unlimited` for an unbounded tier.
  public var description: String {
    let size: String
    if let fraction {
      size = String(fraction)
    } else if capacity == .max {
      size = "unlimited"
    } else {
      switch unit {
      case .bytes: size = ByteCount.exact(capacity)
      case .count: size = "\(capacity)objects"
      case .cost: size = ByteCount.exact(capacity) + "-cost"
      }
    }
    return "\(policy):\(size)" + (policy.admission.map { ",admission=\($0)" } ?? "")
  }

  /// Parses `lru:64MiB`, `lru:0.1` (a fraction of the working set, as `--sizes` takes it),
  /// `s3fifo:small=0.2,ghost=0.9:1GiB`, `lru:10objects`, `nscache:100cost` or `fifo:unlimited`:
  /// a policy specification followed by a size (bytes as `CapacitySpec` parses them,
  /// `objects` or `cost`), optionally followed by `,admission=SPEC` (an admission policy as
  /// `--admission` takes it: `lru:64MiB,admission=size:threshold=1MiB`). Expiry and the other
  /// rules take their defaults.
  public init(parsing written: String, expiry: ExpiryModel = .none) throws(ConfigurationError) {
    var text = written
    var admission: AdmissionSpec?
    if let field = written.firstRange(of: ",admission=") {
      text = String(written[..<field.lowerBound])
      admission = try AdmissionSpec(parsing: String(written[field.upperBound...]))
    }
    guard let colon = text.lastIndex(of: ":") else {
      throw ConfigurationError(.invalidValue, "tier '\(text)' must be POLICY[:params]:SIZE, e.g. lru:64MiB")
    }
    let sizeText = String(text[text.index(after: colon)...]).lowercased()
    let policyText = String(text[..<colon])
    var unit = CapacityUnit.bytes
    var capacity: Int64
    var fraction: Double?
    if sizeText == "unlimited" {
      capacity = .max
    } else if sizeText.hasSuffix("objects"), let count = Int64(sizeText.dropLast("objects".count)), count > 0 {
      unit = .count
      capacity = count
    } else if sizeText.hasSuffix("cost"), let cost = ByteCount.parse(Self.costNumber(sizeText)), cost > 0 {
      unit = .cost
      capacity = cost
    } else if let size = try? CapacitySpec(parsing: sizeText, objectMode: false) {
      switch size {
      case .absolute(let bytes): capacity = bytes
      case .fraction(let share):
        capacity = 0
        fraction = share
      }
    } else {
      throw ConfigurationError(
        .invalidValue,
        "tier '\(text)': '\(sizeText)' is not a size (e.g. 64MiB, 0.1 of the working set, 10objects, 100000cost, unlimited)"
      )
    }
    self.init(
      policy: try PolicySpec(parsing: policyText, admission: admission), capacity: capacity, unit: unit, expiry: expiry)
    self.fraction = fraction
  }

  /// The number of a cost size: `100` of `100cost`, `100MiB` of `100MiB-cost`.
  private static func costNumber(_ text: String) -> String {
    let number = text.dropLast("cost".count)
    return String(number.hasSuffix("-") ? number.dropLast() : number)
  }
}
