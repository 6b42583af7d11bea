import CacheCore
import Engine
import Replay

/// The disagreements CSV (`--disagreements FILE.csv`): one row per counted request whose
/// engine outcome differs from what the trace's own cache did, per engine and repeat, in
/// trace order; at most `CacheEngine.disagreementLimit` per engine. O(rows).
public enum DisagreementReport {
  /// Columns, in order, with their meaning.
  public static let columns: [(name: String, meaning: String)] = [
    ("configuration", "the engine's label (preset:NAME with its parameters, or engine)"),
    ("seed", "the repeat's seed"),
    ("time", "the request's trace time, seconds"),
    ("key", "the request's key hash (hexadecimal): the URL's, for URL keys"),
    ("observed", "what the trace's cache did: hit or miss"),
    ("simulated", "what the engine did: hit (from a tier or a 304) or miss"),
  ]

  /// The CSV text, header first; a run without observed outcomes has only the header.
  public static func render(_ results: [RunResult]) -> String {
    var text = columns.map(\.name).joined(separator: ",") + "\n"
    for result in results {
      for cache in result.caches where !cache.isPolicyRun {
        let label = CSVCell.quoted(cache.label)
        for row in cache.stats.disagreements {
          text += "\(label),\(result.configuration.seed),\(exactSeconds(row.time)),\(String(row.key, radix: 16)),"
          text += row.observed.csvName + "," + (row.simulatedHit ? "hit" : "miss") + "\n"
        }
      }
    }
    return text
  }

  /// Microseconds as seconds with all six decimals, exactly (no rounding through Double).
  static func exactSeconds(_ microseconds: Int64) -> String {
    let fraction = String(microseconds % 1_000_000)
    return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }
}
