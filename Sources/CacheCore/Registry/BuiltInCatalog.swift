/// The built-in eviction and admission policies a module above CacheCore provides (the
/// `Policies` module's `BuiltInPolicies`). CacheCore holds the registries; the policies
/// themselves are compiled beside the engine rather than below it, so the two build at once.
public protocol BuiltInCatalog {
  /// Eviction policies in the order `cachelab policies` lists them.
  static var policies: [PolicyEntry] { get }
  /// Admission policies in the order `cachelab admissions` lists them.
  static var admissions: [AdmissionEntry] { get }
}

/// Finds the built-in catalog once, at the registries' first use, by the runtime's type
/// lookup: any program that links `Policies` (the `cachelab` executable, the CacheLabKit
/// product, the tests) gets every built-in policy without a set-up call. O(1) after the first call.
enum BuiltInCatalogLookup {
  /// The module and type that hold the built-ins.
  static let module = "Policies"
  static let type = "BuiltInPolicies"

  /// The catalog's policies and admission policies, or empty lists when no linked module
  /// provides it (then only registered policies exist).
  static let found: (policies: [PolicyEntry], admissions: [AdmissionEntry]) = {
    // The runtime's mangled name of a top-level enum: <length><module><length><type>O.
    let mangled = "\(module.utf8.count)\(module)\(type.utf8.count)\(type)O"
    guard let catalog = _typeByName(mangled) as? any BuiltInCatalog.Type else { return ([], []) }
    return (catalog.policies, catalog.admissions)
  }()

  /// Why a registry is empty, for its "unknown name" error.
  static let missingNote =
    "no built-in policies are linked: depend on the \(module) module (part of the CacheLabKit product)"
}
