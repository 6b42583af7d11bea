import Foundation
import TestSupport
import Testing

/// The shared-cache presets against the real servers (Scripts/http_diff.py): one seeded
/// workload of every family without capacity pressure goes through the real nginx, Squid or
/// Varnish on loopback (all interleaved on one server instance, about 90 s), and the preset
/// must agree with the server's own log on every request and send the origin as many
/// conditional requests answered 304 as the server did.
/// Skips with a message when the server is not installed; under CI (.ci/run installs them)
/// a missing server fails.
@Suite struct HTTPServerDiffTests {
  static let script = Paths.packageRoot.appendingPathComponent("Scripts/http_diff.py").path
  /// The families compared request by request. `pressure` is left to `bash Scripts/http-diff.sh`:
  /// Squid evicts asynchronously, and nginx's agreement there rests on the cache manager's
  /// measured phase (a fresh server per workload, about 30 s each).
  static let families = "fresh,expiry,nostore,revalidate,vary,cookie,auth,status,expires,heuristic,large"
  /// nginx also runs one `scarce` workload (its own server, about 20 s: a 32k keys zone and
  /// min_uses 2, keys forced out, the manager trimming to its watermark) and one `keys` workload
  /// (300 URLs through a 32k keys zone and back: the second pass hits the 191 it holds).
  static func families(_ server: String) -> String { server == "nginx" ? families + ",scarce,keys" : families }

  /// The programs each server needs, where Debian installs them.
  static let programs = [
    "nginx": ["/usr/sbin/nginx"], "squid": ["/usr/sbin/squid"],
    "varnish": ["/usr/sbin/varnishd", "/usr/bin/varnishncsa"],
  ]

  @Test(arguments: ["nginx", "squid", "varnish"]) func presetAgreesWithTheRealServer(server: String) throws {
    let missing = Self.programs[server, default: []].filter { !FileManager.default.isExecutableFile(atPath: $0) }
    guard missing.isEmpty else {
      let message = "\(server) is not installed (\(missing.joined(separator: ", ")))"
      if Paths.isCI {
        Issue.record("\(message): .ci/run installs it with Scripts/ensure-capture-tools.sh")
      } else {
        print("skipping: \(message); bash Scripts/ensure-capture-tools.sh installs it")
      }
      return
    }
    let out = FaultCases3OutputTests.Scratch().path + "/http-diff"
    // timeout(1) bounds the whole run generously; the script bounds each wait itself.
    let run = try ChildProcess.run(
      "/usr/bin/timeout",
      [
        "1200", "python3", Self.script, "--servers", server, "--workloads", "1", "--seed", "11", "--families",
        Self.families(server), "--together", "--out", out, "--cachelab", CLI.binary,
      ])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
    // Python's csv module ends lines with CRLF, one Character in Swift.
    let rows = summary.split(whereSeparator: \.isNewline).map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let header = rows[0].map(String.init)
    func value(_ row: [Substring], _ name: String) -> String {
      header.firstIndex(of: name).map { String(row[$0]) } ?? "missing column \(name)"
    }
    let families = rows.dropFirst().filter { value($0, "family") != "all" }
    #expect(families.count == Self.families(server).split(separator: ",").count, "\(summary)")
    for row in families {
      let family = value(row, "family")
      #expect(Int(value(row, "compared")) ?? 0 > 0, "\(server) \(family): nothing compared\n\(summary)")
      #expect(value(row, "compared") == value(row, "requests"), "\(server) \(family)")
      #expect(
        value(row, "disagreements") == "0",
        "\(server) \(family) disagrees: \((try? String(contentsOfFile: out + "/disagreements.csv", encoding: .utf8)) ?? "")"
      )
      #expect(
        value(row, "origin_304") == value(row, "simulated_304"),
        "\(server) \(family): the origin sent \(value(row, "origin_304")) 304s, the preset \(value(row, "simulated_304"))"
      )
    }
  }
}
