/// How libCacheSim runs the same policy (the libcachesim 0.3.5 Python package): the row-by-row
/// comparison `Scripts/peer_diff.py` makes, which reads these from `cachelab policies --json`.
public struct LibCacheSimCounterpart: Sendable, Equatable {
  /// CacheLab's parameters for this comparison, every one explicit (`bits=1`), or "" for none.
  public var parameters: String
  /// The package's constructor (`Clock_init`).
  public var constructor: String
  /// libCacheSim's cache-specific parameter string (`init-freq=0,n-bit-counter=1`).
  public var peerParameters: String
  /// What a reader of the comparison should know, or "".
  public var note: String
  /// The two draw from random streams they do not share: compared only when named.
  public var randomised: Bool
  /// The policy draws from libCacheSim's `next_rand`: the package's generator is reset to its
  /// start before each cache.
  public var resetsGenerator: Bool
  /// The policy and parameters under which libCacheSim's own expected results
  /// (`../shared/reference`) list it, or nil when they do not.
  public var reference: LibCacheSimReference?

  public init(
    parameters: String = "", constructor: String, peerParameters: String = "", note: String = "",
    randomised: Bool = false, resetsGenerator: Bool = false, reference: LibCacheSimReference? = nil
  ) {
    self.parameters = parameters
    self.constructor = constructor
    self.peerParameters = peerParameters
    self.note = note
    self.randomised = randomised
    self.resetsGenerator = resetsGenerator
    self.reference = reference
  }
}

/// A row key of libCacheSim's own expected results: its policy name and parameter string.
public struct LibCacheSimReference: Sendable, Equatable {
  public var policy: String
  public var parameters: String

  public init(_ policy: String, parameters: String = "") {
    self.policy = policy
    self.parameters = parameters
  }
}

/// Whether and how libCacheSim has the policy.
public enum LibCacheSimMapping: Sendable, Equatable {
  /// Compared row by row through each counterpart (a policy may have several: parameter
  /// variants, or two implementations in the package).
  case counterparts([LibCacheSimCounterpart])
  /// Not compared, and why.
  case none(reason: String)
}
