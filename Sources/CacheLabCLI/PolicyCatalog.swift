import CacheCore
import Foundation

/// `cachelab policies --json`: every registered policy with its parameters and its libCacheSim
/// counterparts (what `Scripts/peer_diff.py` compares), in registry order.
struct PolicyCatalog: Encodable {
  struct Parameter: Encodable {
    var name: String
    var `default`: String
    var help: String
  }

  struct Counterpart: Encodable {
    var parameters: String
    var constructor: String
    var peerParameters: String
    var note: String
    var randomised: Bool
    var resetsGenerator: Bool
    var reference: Reference?

    enum CodingKeys: String, CodingKey {
      case parameters, constructor, note, randomised, reference
      case peerParameters = "peer_parameters"
      case resetsGenerator = "resets_generator"
    }

    // A nil reference is written as null, not left out.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(parameters, forKey: .parameters)
      try container.encode(constructor, forKey: .constructor)
      try container.encode(peerParameters, forKey: .peerParameters)
      try container.encode(note, forKey: .note)
      try container.encode(randomised, forKey: .randomised)
      try container.encode(resetsGenerator, forKey: .resetsGenerator)
      try container.encode(reference, forKey: .reference)
    }
  }

  struct Reference: Encodable {
    var policy: String
    var parameters: String
  }

  struct LibCacheSim: Encodable {
    var counterparts: [Counterpart]?
    var none: String?
  }

  struct Policy: Encodable {
    var name: String
    var aliases: [String]
    var summary: String
    var origin: String
    var randomized: Bool
    var parameters: [Parameter]
    var libcachesim: LibCacheSim
  }

  /// The registry as pretty-printed JSON (keys sorted), ending in a newline.
  static func json() -> String {
    let policies = PolicyRegistry.all.map { entry in
      let descriptor = entry.descriptor
      let libCacheSim: LibCacheSim
      switch descriptor.libCacheSim {
      case .counterparts(let counterparts):
        libCacheSim = LibCacheSim(
          counterparts: counterparts.map {
            Counterpart(
              parameters: $0.parameters, constructor: $0.constructor, peerParameters: $0.peerParameters,
              note: $0.note, randomised: $0.randomised, resetsGenerator: $0.resetsGenerator,
              reference: $0.reference.map { Reference(policy: $0.policy, parameters: $0.parameters) })
          })
      case .none(let reason):
        libCacheSim = LibCacheSim(none: reason)
      }
      return Policy(
        name: descriptor.name, aliases: descriptor.aliases, summary: descriptor.summary, origin: descriptor.origin,
        randomized: descriptor.isRandomized,
        parameters: descriptor.parameters.map { Parameter(name: $0.name, default: $0.defaultValue, help: $0.help) },
        libcachesim: libCacheSim)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding strings, booleans and arrays of them cannot fail.
    guard let data = try? encoder.encode(policies) else { preconditionFailure("the policy catalogue did not encode") }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
