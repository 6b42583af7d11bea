/// The one list of eviction policies. The CLI, `cachelab policies` and the tests all read
/// it; adding a policy means adding its file and one line in
/// `Sources/Policies/Registry/BuiltInPolicies.swift` (or, from a program that uses
/// CacheLab as a library, one ``register(_:)`` call).
public enum PolicyRegistry {
  /// The registry: built-in policies in the order `cachelab policies` lists them.
  public static let registry = Registry<PolicyEntry>(
    kind: "policy", plural: "policies", BuiltInCatalogLookup.found.policies,
    emptyNote: BuiltInCatalogLookup.missingNote)

  /// Every registered policy, in listing order.
  public static var all: [PolicyEntry] { registry.all }

  /// Adds a policy defined outside CacheLab (`PolicyEntry(MyPolicy.self)`), after the built-ins.
  ///
  /// - Throws: `ConfigurationError` when its name or an alias is taken.
  public static func register(_ entry: PolicyEntry) throws(ConfigurationError) {
    try registry.register(entry)
  }

  /// The entry named `name` (or one of its aliases), case-insensitively.
  ///
  /// - Throws: `ConfigurationError` listing the known names.
  public static func entry(named name: String) throws(ConfigurationError) -> PolicyEntry {
    try registry.named(name)
  }
}

extension PolicyEntry: RegistryEntry {
  public var name: String { descriptor.name }
  public var aliases: [String] { descriptor.aliases }
  public var summary: String { descriptor.summary }
  public var parameters: [ParameterSpec] { descriptor.parameters }
}

/// A registered policy: its descriptor and a factory specialised for its type.
public struct PolicyEntry: Sendable {
  /// The policy's name, parameters and documentation.
  public let descriptor: PolicyDescriptor
  /// Whether the policy's slots are stable (``PolicyLoopHooks/slotsAreStable``).
  public let slotsAreStable: Bool
  let factory:
    @Sendable (Int64, Parameters, PolicyContext, TimeToLive?, (any AdmissionPolicy)?) throws(ConfigurationError) ->
      any CacheSimulation

  /// Registers policy type `P`.
  public init<P: EvictionPolicy & ~Copyable>(_ type: P.Type) {
    descriptor = P.descriptor
    slotsAreStable = P.slotsAreStable
    factory = { capacity, parameters, context, timeToLive, admission throws(ConfigurationError) in
      PolicySimulation(
        try P(capacity: capacity, parameters: parameters, context: context), timeToLive: timeToLive,
        admission: admission)
    }
  }

  /// Parses `text` (`k=v,k=v`) against this policy's parameters.
  public func parseParameters(_ text: Substring = "") throws(ConfigurationError) -> Parameters {
    try Parameters(parsing: text, specs: descriptor.parameters, owner: descriptor.name)
  }

  /// Creates an empty simulated cache of `capacity` bytes (or objects); with `timeToLive`,
  /// its replays expire objects by that rule (`--ttl`); with `admission`, missed objects
  /// enter only when it admits them.
  public func makeSimulation(
    capacity: Int64, parameters: Parameters, context: PolicyContext = PolicyContext(),
    timeToLive: TimeToLive? = nil, admission: (any AdmissionPolicy)? = nil
  ) throws(ConfigurationError) -> any CacheSimulation {
    try factory(capacity, parameters, context, timeToLive, admission)
  }
}
