import Engine
import Foundation
import TestSupport
import Testing

/// `--disk-backend file:DIR`: each engine its own store, a notice when one is reused, and
/// `--fresh` to start empty.
@Suite(.serialized) struct FileStoreHygieneTests {
  static let trace: String = {
    var text = "time,key,size\n"
    for index in 0..<300 { text += "\(index),\(index % 120),\(1000 + index % 7)\n" }
    return Paths.temporaryFile("hygiene.cachelab.csv", text: text)
  }()

  /// Runs two pincache engines on the trace; returns the outcome and the CSV's hit columns.
  static func run(_ root: URL, _ extra: [String] = []) throws -> (outcome: CLI.Outcome, hits: String) {
    let csv = root.path + ".csv"
    let outcome = try CLI.run(
      [
        "run", "--trace", trace, "--format", "cachelab", "--preset", "pincache:disk=40KiB,pincache:disk=400KiB",
        "--disk-backend", "file:\(root.path)", "--quiet", "--output", csv,
      ] + extra)
    let rows = (try? String(contentsOfFile: csv, encoding: .utf8)) ?? ""
    let header = rows.split(separator: "\n").first.map { $0.split(separator: ",") } ?? []
    let column = header.firstIndex(of: "hits") ?? 0
    let hits = rows.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[column] }.joined(separator: " ")
    return (outcome, hits)
  }

  @Test func twoEnginesNeverShareAStoreAndReuseIsAnnounced() throws {
    let root = Paths.temporaryDirectory("hygiene")
    let (first, firstHits) = try Self.run(root)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stderr.contains("reusing"))
    let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    #expect(folders.count == 2, "\(folders)")
    #expect(folders.allSatisfy { $0.hasPrefix("pincache_disk=") }, "\(folders)")
    let (second, secondHits) = try Self.run(root)
    #expect(second.status == 0)
    #expect(second.stderr.components(separatedBy: "reusing the store in").count == 3, "\(second.stderr)")
    #expect(second.stderr.contains("objects") && second.stderr.contains("--fresh"))
    let (third, thirdHits) = try Self.run(root, ["--fresh"])
    #expect(third.status == 0)
    #expect(!third.stderr.contains("reusing"))
    // Same results as the first run: the store was emptied first.
    #expect(!firstHits.isEmpty && thirdHits == firstHits)
    #expect(secondHits != firstHits, "a reused store starts warm")
  }

  @Test func freshWithoutAFileBackendIsAUsageError() throws {
    let outcome = try CLI.run(["run", "--trace", Self.trace, "--format", "cachelab", "--preset", "pincache", "--fresh"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--fresh needs --disk-backend"))
  }
}

/// What the presets say about themselves (docs/presets.md is generated from it).
@Suite struct PresetDocumentationTests {
  @Test func detailsListEveryModelledAndUnmodelledRule() throws {
    let details = try CLI.run(["presets", "--details"])
    #expect(details.status == 0)
    for name in ["nscache-linux", "urlcache-linux", "mknetworkkit", "sdwebimage"] {
      #expect(details.stdout.contains(name))
    }
    #expect(
      details.stdout.components(separatedBy: "not modelled:").count == EnginePreset.all.count + 1, "one list per preset"
    )
    #expect(details.stdout.contains("NSCache.swift setObject(_:forKey:cost:) L164–192"))
  }
}
