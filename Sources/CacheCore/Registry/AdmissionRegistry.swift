/// The one list of admission policies (`--admission`, a tier's `admission=`). Adding one
/// means adding its file and one line in `Sources/Policies/Registry/BuiltInPolicies.swift` (or, from a program that uses CacheLab as a
/// library, one ``register(_:)`` call).
public enum AdmissionRegistry {
  /// The registry: built-in admission policies in the order `cachelab admissions` lists them.
  public static let registry = Registry<AdmissionEntry>(
    kind: "admission policy", plural: "admission policies", BuiltInCatalogLookup.found.admissions,
    emptyNote: BuiltInCatalogLookup.missingNote)

  /// Every registered admission policy, in listing order.
  public static var all: [AdmissionEntry] { registry.all }

  /// Adds an admission policy defined outside CacheLab, after the built-ins.
  ///
  /// - Throws: `ConfigurationError` when its name or an alias is taken.
  public static func register(_ entry: AdmissionEntry) throws(ConfigurationError) {
    try registry.register(entry)
  }
}

/// A registered admission policy: its descriptor and a factory.
public struct AdmissionEntry: Sendable, RegistryEntry {
  /// The admission policy's name, parameters and documentation.
  public let descriptor: PolicyDescriptor
  /// Whether the admission policy learns from every request (``AdmissionPolicy/observesRequests``).
  public let observesRequests: Bool
  let factory: @Sendable (Int64, Parameters, PolicyContext) throws(ConfigurationError) -> any AdmissionPolicy

  /// Registers admission policy type `A`.
  public init<A: AdmissionPolicy>(_ type: A.Type) {
    descriptor = A.descriptor
    observesRequests = A.observesRequests
    factory = { capacity, parameters, context throws(ConfigurationError) in
      try A(capacity: capacity, parameters: parameters, context: context)
    }
  }

  public var name: String { descriptor.name }
  public var aliases: [String] { descriptor.aliases }
  public var summary: String { descriptor.summary }
  public var parameters: [ParameterSpec] { descriptor.parameters }

  /// A fresh instance for a cache of `capacity` bytes (or objects).
  public func make(capacity: Int64, parameters: Parameters, context: PolicyContext) throws(ConfigurationError)
    -> any AdmissionPolicy
  {
    try factory(capacity, parameters, context)
  }
}

/// An admission policy chosen on the command line: `name` or `name:key=value,...`.
public struct AdmissionSpec: Sendable, CustomStringConvertible {
  /// The registered admission policy.
  public let entry: AdmissionEntry
  /// Its validated parameters (defaults filled in).
  public let parameters: Parameters

  /// Parses one `name[:k=v,...]` specification.
  ///
  /// - Throws: `ConfigurationError` for an unknown admission policy or parameter.
  public init(parsing text: String) throws(ConfigurationError) {
    (entry, parameters) = try AdmissionRegistry.registry.parse(text)
  }

  /// The registry name.
  public var name: String { entry.descriptor.name }

  /// `name` or `name:k=v,...` with every parameter spelled out.
  public var description: String {
    parameters.specs.isEmpty ? name : "\(name):\(parameters)"
  }

  /// `name`, plus the parameters that differ from their defaults (`size:threshold=4096`).
  public var label: String { parameters.changed.isEmpty ? name : "\(name):\(parameters.changed)" }

  /// ``description`` with `;` between parameters, so that it stays one CSV cell.
  public var csvValue: String { description.replacingOccurrences(",", with: ";") }

  /// A fresh instance for a cache of `capacity` bytes (or objects).
  public func make(capacity: Int64, context: PolicyContext) throws(ConfigurationError) -> any AdmissionPolicy {
    try entry.make(capacity: capacity, parameters: parameters, context: context)
  }

  /// Splits an `--admission` list with `--policies`' comma rules; `none` stands for no
  /// admission policy (nil).
  public static func parseList(_ text: String) throws(ConfigurationError) -> [AdmissionSpec?] {
    var specs: [AdmissionSpec?] = []
    for group in try SpecList.split(text, kind: "admission policy") {
      specs.append(group.lowercased() == "none" ? nil : try AdmissionSpec(parsing: group))
    }
    return specs
  }
}
