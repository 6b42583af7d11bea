import CacheCore
import Stats

/// `mix`: a weighted mixture of other generators: each request comes from part i with
/// probability wᵢ / Σw, and each part keeps its own objects (disjoint key spaces) and its own
/// order. `parts=0.7*zipf(objects=1000;alpha=0.9)+0.3*scan` adds a scan to a popular set.
public struct MixGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "mix", summary: "a weighted mixture of the other request generators",
    parameters: [
      ParameterSpec(
        "parts", default: "0.8*zipf+0.2*scan", .text,
        help:
          "WEIGHT*NAME(k=v;k=v)+... over zipf, uniform, loop, scan, shift (a part's requests and rate are the mix's)")
    ] + RequestStream.commonParameters(),
    example: "gen:mix:requests=200000,parts=0.7*zipf(objects=1000;alpha=0.9)+0.3*scan")

  /// One part: its generator and weight.
  public struct Part: Sendable {
    public var weight: Double
    public var generator: any PatternGeneratorBox
  }

  public let parts: [Part]
  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
    var parts: [Part] = []
    for item in parameters.string("parts").split(separator: "+") {
      let text = item.filter { $0 != " " }
      guard let star = text.firstIndex(of: "*"), let weight = Double(text[..<star]), weight > 0, weight.isFinite else {
        throw ConfigurationError(.invalidValue, "mix: part '\(item)' must be WEIGHT*NAME or WEIGHT*NAME(k=v;k=v)")
      }
      var rest = text[text.index(after: star)...]
      var inner: Substring = ""
      if let open = rest.firstIndex(of: "(") {
        guard rest.last == ")" else { throw ConfigurationError(.invalidValue, "mix: part '\(item)' lacks its ')'") }
        inner = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        rest = rest[..<open]
      }
      let entry = try GeneratorRegistry.entry(named: String(rest))
      guard let makePart = entry.makePart else {
        throw ConfigurationError(.invalidValue, "mix: '\(rest)' is not a request generator that can be mixed")
      }
      var settings = inner.split(separator: ";").map(String.init)
      for shared in ["requests", "rate", "sizes"] where !settings.contains(where: { $0.hasPrefix(shared + "=") }) {
        settings.append("\(shared)=\(parameters.string(shared).replacingOccurrences(";", with: "|"))")
      }
      let partParameters = try Parameters(
        parsing: settings.joined(separator: ",").replacingOccurrences("|", with: ";"),
        specs: entry.descriptor.parameters, owner: "mix part \(entry.descriptor.name)")
      parts.append(Part(weight: weight, generator: try makePart(partParameters)))
    }
    guard !parts.isEmpty else { throw ConfigurationError(.invalidValue, "mix: parts= needs at least one part") }
    self.parts = parts
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(
      choice: DiscreteSampler(weights: parts.map(\.weight)), random: GSLRandom(seed: KeyHash.mix(seed ^ 0xc4_01ce)),
      patterns: parts.enumerated().map { offset, part in
        part.generator.anyPattern(
          seed: KeyHash.mix(seed &+ UInt64(offset) &+ 1), space: space &* 64 &+ UInt64(offset) &+ 1)
      })
  }

  /// Picks a part, then asks it for the object.
  public struct Pattern: KeyPattern {
    let choice: DiscreteSampler
    let random: GSLRandom
    var patterns: [any KeyPattern]

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      let part = choice.sample(random)
      return patterns[part].next(index: index, time: time)
    }
  }
}
