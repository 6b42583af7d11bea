/// A policy chosen on the command line: `name` or `name:key=value,key=value`.
public struct PolicySpec: Sendable, CustomStringConvertible {
  /// The registered policy.
  public let entry: PolicyEntry
  /// Its validated parameters (defaults filled in).
  public let parameters: Parameters
  /// The admission policy in front of the cache (`--admission`, a tier's `admission=`), or
  /// nil: every missed object that fits is inserted.
  public var admission: AdmissionSpec?

  /// Parses one `name[:k=v,...]` specification.
  ///
  /// - Throws: `ConfigurationError` for an unknown policy or parameter.
  public init(parsing text: String, admission: AdmissionSpec? = nil) throws(ConfigurationError) {
    (entry, parameters) = try PolicyRegistry.registry.parse(text)
    self.admission = admission
  }

  /// The policy's registry name.
  public var name: String { entry.descriptor.name }

  /// `name` or `name:k=v,...` with every parameter spelled out.
  public var description: String {
    parameters.specs.isEmpty ? name : "\(name):\(parameters)"
  }

  /// `name`, plus only the parameters that differ from their defaults (`clock:bits=2`, but
  /// `s3fifo`), plus `+admission` when there is one (`lru+bloom-filter`): how tables, charts
  /// and comparisons name the policy. The CSV keeps every parameter.
  public var label: String {
    let policy = parameters.changed.isEmpty ? name : "\(name):\(parameters.changed)"
    return admission.map { "\(policy)+\($0.label)" } ?? policy
  }

  /// The label of the policy a report row names (`policy` and its `params`, `;`-separated,
  /// and its `admission`), or the row's text as written when the registry does not know it.
  public static func label(policy: String, params: String, admission: String = "") -> String {
    let written = params.isEmpty ? policy : "\(policy):\(params.replacingOccurrences(";", with: ","))"
    let admissionText = admission.replacingOccurrences(";", with: ",")
    guard var spec = try? PolicySpec(parsing: written) else {
      return admission.isEmpty ? written : "\(written)+\(admissionText)"
    }
    if !admission.isEmpty {
      guard let parsed = try? AdmissionSpec(parsing: admissionText) else { return "\(spec.label)+\(admissionText)" }
      spec.admission = parsed
    }
    return spec.label
  }

  /// Splits a `--policies` list (``SpecList`` rules: `lru,s3fifo:small=0.1,ghost=0.9,sieve`
  /// names three policies).
  public static func parseList(_ text: String) throws(ConfigurationError) -> [PolicySpec] {
    var specs: [PolicySpec] = []
    for group in try SpecList.split(text, kind: "policy") { specs.append(try PolicySpec(parsing: group)) }
    return specs
  }
}
