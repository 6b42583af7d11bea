import CacheCore
import Foundation
import TestSupport
import Testing

@testable import Traces

/// HAR files that real producers exported (Chrome, Brave, Firefox, Safari, Charles, Proxyman,
/// Fiddler, WebPageTest, mitmproxy; provenance and licences in Fixtures/har-producers/README.md)
/// read as Foundation's JSON parser reads them: the same GETs, invalidations and
/// client-cache answers, the sizes each producer's documented field gives, and the producer
/// named in the run header.
@Suite struct HARProducerTests {
  static let folder = Paths.packageRoot.appendingPathComponent("Tests/TracesTests/Fixtures/har-producers").path
  static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".har") }.sorted()

  /// The reader's producer class by the file's name: what each exporter is.
  static func producer(_ file: String) -> String {
    let prefixes = [
      ("chrome", "Chrome"), ("brave", "Chrome"), ("firefox", "Firefox"), ("safari", "Safari"),
      ("mitmproxy", "mitmproxy"), ("webpagetest", "WebPageTest"),
    ]
    return prefixes.first { file.hasPrefix($0.0) }?.1 ?? "generic"
  }

  /// What the HAR holds, read with JSONSerialization: the GET/HEAD entries with an http(s)
  /// URL and a response, the invalidating methods, those the recording client answered from
  /// its own cache, and the decoded size of each GET with a 2xx body.
  struct Expected {
    var gets = 0
    var deletes = 0
    var clientHits = 0
    var skipped = 0
    var sizes: [Int64] = []
  }

  static func expected(_ path: String, producer: String) throws -> Expected {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let log = try #require(root["log"] as? [String: Any])
    let entries = try #require(log["entries"] as? [[String: Any]])
    var expected = Expected()
    for entry in entries {
      let request = entry["request"] as? [String: Any] ?? [:]
      let response = entry["response"] as? [String: Any] ?? [:]
      let content = response["content"] as? [String: Any] ?? [:]
      let method = (request["method"] as? String ?? "").uppercased()
      let url = (request["url"] as? String ?? "").lowercased()
      let status = (response["status"] as? NSNumber)?.intValue ?? 0
      let isHTTP = url.hasPrefix("http://") || url.hasPrefix("https://")
      switch method {
      case "GET", "HEAD", "":
        guard isHTTP, status != 0 else {
          expected.skipped += 1
          continue
        }
        expected.gets += 1
      case "POST", "PUT", "PATCH", "DELETE":
        if isHTTP { expected.deletes += 1 } else { expected.skipped += 1 }
        continue
      default:
        expected.skipped += 1
        continue
      }
      let fromCache = entry["_fromCache"] as? String ?? ""
      let fetchType = entry["_fetchType"] as? String ?? ""
      let number = { (object: [String: Any], key: String) in (object[key] as? NSNumber)?.doubleValue }
      let firefoxHit =
        producer == "Firefox" && status != 304 && (number(response, "headersSize") ?? 0) <= 0
        && entry["serverIPAddress"] == nil
      if !fromCache.isEmpty || fetchType == "Memory Cache" || fetchType == "Disk Cache" || firefoxHit {
        expected.clientHits += 1
      }
      if method == "GET", (200..<300).contains(status), let size = number(content, "size"), size > 0 {
        switch producer {
        case "mitmproxy": expected.sizes.append(Int64(size + max(0, number(content, "compression") ?? 0)))
        case "WebPageTest": expected.sizes.append(Int64(number(response, "_objectSizeUncompressed") ?? size))
        default: expected.sizes.append(Int64(size))
        }
      }
    }
    return expected
  }

  @Test func everyProducerHasAFixture() {
    let producers = Set(Self.files.map { $0.split(separator: "-").first.map(String.init) ?? "" })
    for wanted in ["chrome", "firefox", "safari", "charles", "proxyman", "webpagetest", "mitmproxy", "fiddler"] {
      #expect(producers.contains(wanted), "no \(wanted) HAR in \(Self.folder)")
    }
  }

  @Test func firefoxCacheAnswersAreFoundInBothForms() throws {
    // Firefox 111 marks nothing: its memory-cache answers (no headers, bodySize -1) and its
    // disk-cache answers (headersSize 0, no server address) are found by their shape.
    let read = try AccessLogTests.read(path: Self.folder + "/firefox-mitmproxy-org.har", "har")
    let hits = read.requests.indices.filter { read.attributes[$0].observed == .clientHit }
    let urls = Set(hits.compactMap { read.urls[$0]?.split(separator: "/").last.map(String.init) })
    #expect(urls.isSuperset(of: ["logo-navbar.png", "polyfills.js", "favicon.ico"]), "\(urls)")
    #expect(!urls.contains("github-stats.json"), "a 304 is the server's answer")
  }

  @Test(arguments: files) func readsAsFoundationParsesIt(file: String) throws {
    let path = Self.folder + "/" + file
    let producer = Self.producer(file)
    let expected = try Self.expected(path, producer: producer)
    #expect(expected.gets > 0, "\(file) has no GET with a response")
    // Sniffed by content: no --format.
    let spec = try TraceSpec(format: nil, inferringFrom: path)
    #expect(spec.format.name == "har", "\(file): \(spec.format.name)")
    let read = try AccessLogTests.read(path: path, "har")
    let gets = read.requests.indices.filter { read.requests[$0].operation == .get }
    #expect(gets.count == expected.gets, "\(file)")
    #expect(read.requests.count - gets.count == expected.deletes, "\(file)")
    #expect(gets.filter { read.attributes[$0].observed == .clientHit }.count == expected.clientHits, "\(file)")
    // Every GET whose entry states a decoded body is that size (HAR order and replay order
    // may differ, so the sizes are compared as multisets).
    let sizes = gets.map { read.requests[$0].size }
    for size in Set(expected.sizes) {
      let stated = expected.sizes.filter { $0 == size }.count
      #expect(sizes.filter { $0 == size }.count >= stated, "\(file): \(stated) × \(size) B in \(sizes)")
    }
    let notes = try #require(read.notes)
    #expect(notes.hasPrefix("\(producer) HAR"), "\(file): \(notes)")
    if expected.skipped > 0 { #expect(notes.contains("\(expected.skipped) skipped"), "\(file): \(notes)") }
    // Keys are the URLs, and the book gives each one back.
    for index in gets { #expect(read.urls[index]?.hasPrefix("http") == true, "\(file)") }
  }
}
