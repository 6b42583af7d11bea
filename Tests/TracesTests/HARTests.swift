import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// The `har` format: entries of HARs as each producer writes them become requests, with the
/// decoded body size and the browser-cache marker that producer uses.
@Suite struct HARTests {
  /// A HAR entry as JSON text; `extra` adds entry-level fields, `response` response fields.
  static func entry(
    _ started: String, _ url: String, method: String = "GET", status: Int = 200, headers: [(String, String)] = [],
    content: String = "\"size\": 1000", response: String = "\"bodySize\": 1000, \"headersSize\": 200",
    extra: String = "", timings: String = "\"wait\": 40.5, \"receive\": 9.5"
  ) -> String {
    let headerJSON = headers.map { "{\"name\": \"\($0.0)\", \"value\": \"\($0.1)\"}" }.joined(separator: ", ")
    return """
      {"startedDateTime": "\(started)", "time": 50, \(extra)
       "request": {"method": "\(method)", "url": "\(url)", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "queryString": [], "headersSize": -1, "bodySize": 0},
       "response": {"status": \(status), "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [\(headerJSON)],
         "content": {\(content), "mimeType": "image/png", "text": "iVBORw0KGgo\\"AAAA\\u00e9"}, "redirectURL": "", \(response)},
       "cache": {}, "timings": {"blocked": -1, "dns": -1, "connect": -1, "send": 0, \(timings)}}
      """
  }

  static func har(creator: String, version: String = "1.2", _ entries: [String], pagesFirst: Bool = true) -> String {
    let pages =
      "\"pages\": [{\"startedDateTime\": \"2024-01-01T00:00:00Z\", \"id\": \"p\", \"title\": \"x\", \"pageTimings\": {}}]"
    let head = "{\"log\": {\"version\": \"\(version)\", \"creator\": {\"name\": \"\(creator)\", \"version\": \"1\"}, "
    let list = "\"entries\": [\n" + entries.joined(separator: ",\n") + "\n]"
    return head + (pagesFirst ? pages + ", " + list : list + ", " + pages) + "}}\n"
  }

  @Test func chromeEntriesKeepTheirOrderSizesAndCacheHits() throws {
    let text = Self.har(
      creator: "WebInspector",
      [
        Self.entry(
          "2024-01-02T03:04:05.100Z", "https://a.example/i.png",
          headers: [("Cache-Control", "max-age=60"), ("ETag", "\\\"e1\\\"")]),
        Self.entry(
          "2024-01-02T03:04:06.250Z", "https://a.example/i.png", content: "\"size\": 1000",
          response: "\"bodySize\": 0, \"headersSize\": -1, \"_transferSize\": 0", extra: "\"_fromCache\": \"memory\","),
        Self.entry("2024-01-02T03:04:05.900Z", "https://a.example/api", method: "POST"),
        Self.entry("2024-01-02T03:04:07Z", "data:image/png;base64,AAAA"),
        Self.entry(
          "2024-01-02T03:04:08Z", "https://a.example/i.png", status: 304, content: "\"size\": 0",
          response: "\"bodySize\": 0, \"headersSize\": 150"),
      ])
    let read = try AccessLogTests.read(text, "har", name: "chrome.har")
    // Entries are replayed in time order (the POST came earlier than the cache hit).
    #expect(read.requests.map(\.operation) == [.get, .delete, .get, .get])
    #expect(
      read.requests.map(\.time) == [
        1_704_164_645_100_000, 1_704_164_645_900_000, 1_704_164_646_250_000, 1_704_164_648_000_000,
      ])
    #expect(read.requests.map(\.size) == [1000, 0, 1000, 1000])
    #expect(read.attributes.map(\.observed) == [.unknown, .unknown, .clientHit, .unknown])
    #expect(read.attributes[0].latency == 40_500, "the wait alone: the engine models the body's transfer")
    #expect(read.attributes[0].cacheControl.maxAge == 60)
    #expect(read.attributes[0].etag == KeyHash.hash("\"e1\""))
    let notes = try #require(read.notes)
    #expect(notes.hasPrefix("Chrome HAR: sizes from content.size"), "\(notes)")
    #expect(notes.contains("1 skipped (1 data: URL)"), "\(notes)")
  }

  @Test func eachProducerSizesAndMarksAsItWrites() throws {
    // mitmproxy: content.size is the encoded body; decoded = size + compression.
    let mitm = try AccessLogTests.read(
      Self.har(
        creator: "mitmproxy",
        [
          Self.entry(
            "2024-01-02T03:04:05.123456+00:00", "http://h/x.js", content: "\"size\": 300, \"compression\": 700")
        ]),
      "har", name: "mitm.har")
    #expect(mitm.requests.map(\.size) == [1000])
    // WebPageTest: the decoded size is _objectSizeUncompressed.
    let wpt = try AccessLogTests.read(
      Self.har(
        creator: "WebPagetest",
        [
          Self.entry(
            "2024-01-02T03:04:05.123+00:00", "http://h/x.js", content: "\"size\": 300",
            extra: "\"_objectSizeUncompressed\": 2048,")
        ]),
      "har", name: "wpt.har")
    #expect(wpt.requests.map(\.size) == [2048])
    // Safari: _fetchType marks the browser's own cache.
    let safari = try AccessLogTests.read(
      Self.har(
        creator: "WebKit Web Inspector",
        [
          Self.entry("2024-01-02T03:04:05Z", "http://h/a", extra: "\"_fetchType\": \"Disk Cache\","),
          Self.entry("2024-01-02T03:04:06Z", "http://h/b", extra: "\"_fetchType\": \"Network Load\","),
        ]), "har", name: "safari.har")
    #expect(safari.attributes.map(\.observed) == [.clientHit, .unknown])
    // Firefox (HAR 1.1, local times with an offset): a cache hit has no bytes on the wire and
    // no server address; bodySize counts the headers, which are taken off.
    let firefox = try AccessLogTests.read(
      Self.har(
        creator: "Firefox", version: "1.1",
        [
          Self.entry(
            "2024-01-02T04:04:05.000+01:00", "http://h/a", content: "\"size\": 0",
            response: "\"bodySize\": 700, \"headersSize\": 200", extra: "\"serverIPAddress\": \"10.0.0.1\","),
          Self.entry("2024-01-02T04:04:06.000+01:00", "http://h/c", response: "\"bodySize\": 0, \"headersSize\": 0"),
        ], pagesFirst: false), "har", name: "firefox.har")
    #expect(firefox.requests.map(\.time) == [1_704_164_645_000_000, 1_704_164_646_000_000])
    #expect(firefox.requests.map(\.size) == [500, 1000])
    #expect(firefox.attributes.map(\.observed) == [.unknown, .clientHit])
    // A proxy's X-Cache header names the upstream cache's outcome.
    let charles = try AccessLogTests.read(
      Self.har(
        creator: "Charles Proxy",
        [Self.entry("2024-01-02T03:04:05Z", "http://h/a", headers: [("X-Cache", "Hit from cloudfront")])]),
      "har", name: "charles.har")
    #expect(charles.attributes.map(\.observed) == [.upstreamHit])
  }

  @Test func harsAreRecognisedByContentWithAByteOrderMark() throws {
    let text = Self.har(creator: "x", [Self.entry("2024-01-02T03:04:05Z", "http://h/a")])
    let path = Paths.temporaryFile("capture.json", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
    let spec = try TraceSpec(format: nil, inferringFrom: path)
    #expect(spec.format.name == "har")
    #expect(try ReaderTests.read(path, "har").count == 1)
  }

  /// A file cut anywhere inside its JSON is an error naming where, never a shorter run.
  @Test func truncatedOrBrokenHARsFailWithTheirPlace() throws {
    let text = Self.har(creator: "x", (0..<5).map { Self.entry("2024-01-02T03:04:0\($0)Z", "http://h/\($0)") })
    for cut in stride(from: 10, to: text.utf8.count - 2, by: 97) {
      let path = Paths.temporaryFile("cut.har", bytes: Array(text.utf8.prefix(cut)))
      #expect(throws: TraceError.self, "cut at \(cut)") { try ReaderTests.read(path, "har") }
    }
    let broken = text.replacingOccurrences(of: "\"time\": 50,", with: "\"time\": 50,,")
    let path = Paths.temporaryFile("broken.har", text: broken)
    do {
      _ = try ReaderTests.read(path, "har")
      Issue.record("a broken HAR was read")
    } catch let error as TraceError {
      #expect(error.description.hasPrefix("\(path):2: column"), "\(error)")
    }
  }
}
