import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// An HTTP trace written to the `cachelab` CSV (with URLs as keys, plain or anonymized) reads
/// back as the same requests with the same attributes: what `convert` promises.
@Suite struct HTTPConvertTests {
  /// Entries that exercise every attribute and every URL part the anonymizer must keep apart.
  static let har: String = {
    let entry = Self.entry
    return HARTests.har(
      creator: "WebInspector",
      [
        entry(
          "2024-01-02T03:04:05.100Z", "https://User:pw@Img.Example.COM:8443/a/b%2Fc/photo.JPG?x=1", 200,
          [
            ("Cache-Control", "public, max-age=60, max-age=70"), ("ETag", "W/\\\"abc\\\""), ("Vary", "Accept"),
            ("WWW-Authenticate", "Basic"), ("Date", "Tue, 02 Jan 2024 03:04:05 GMT"),
            ("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT"), ("Expires", "garbage"), ("Age", "12"),
            ("X-Cache", "HIT from proxy"),
          ]),
        entry("2024-01-02T03:04:05.200Z", "https://img.example.com:8443/a/b/c/photo.JPG?x=1", 200, []),
        entry("2024-01-02T03:04:05.300Z", "https://img.example.com/%41bc/", 200, [("ETag", "\\\"v1\\\"")]),
        entry("2024-01-02T03:04:05.400Z", "https://img.example.com/Abc", 200, [("ETag", "\\\"v1\\\"")]),
        entry("2024-01-02T03:04:05.500Z", "https://img.example.com/%41bc", 200, [("ETag", "\\\"v2\\\"")]),
        entry("2024-01-02T03:04:05.600Z", "http://api.example.com/v1/items?id=3", 200, [("Cache-Control", "")]),
        entry("2024-01-02T03:04:05.700Z", "https://a.example/x,y\\\"z.png", 304, [("Cache-Control", "no-store")]),
        entry("2024-01-02T03:04:05.800Z", "https://img.example.com/Abc", 200, [("ETag", "\\\"v3\\\"")]),
        HARTests.entry("2024-01-02T03:04:05.900Z", "http://api.example.com/v1/items?id=3", method: "POST"),
      ])
  }()

  static func entry(_ started: String, _ url: String, _ status: Int, _ headers: [(String, String)]) -> String {
    HARTests.entry(started, url, status: status, headers: headers)
  }

  /// Writes `read` as the cachelab CSV with HTTP columns and key names from `book`.
  static func write(_ read: AccessLogTests.Read, book: TrafficBook?, anonymizer: URLAnonymizer?) throws -> String {
    let path = Paths.temporaryDirectory().appendingPathComponent("out.cachelab.csv").path
    let writer = try CacheLabTraceWriter(
      path: path, httpColumns: true, names: .init(book: book, anonymizer: anonymizer))
    for (request, row) in zip(read.requests, read.attributes) { try writer.write(request, attributes: row) }
    try writer.commit()
    return path
  }

  /// Whether `a` and `b` make the same partition: a[i] == a[j] exactly when b[i] == b[j].
  static func samePartition<T: Hashable, U: Hashable>(_ a: [T], _ b: [U]) -> Bool {
    guard a.count == b.count else { return false }
    var forward: [T: U] = [:]
    var backward: [U: T] = [:]
    for (x, y) in zip(a, b) {
      if forward[x, default: y] != y || backward[y, default: x] != x { return false }
      forward[x] = y
      backward[y] = x
    }
    return true
  }

  @Test(arguments: [nil, "s3cret"] as [String?])
  func convertedHTTPTracesReadBackAsTheyWere(salt: String?) throws {
    let source = Paths.temporaryFile("capture.har", text: Self.har)
    let original = try AccessLogTests.read(path: source, "har")
    #expect(original.requests.count == 9)
    #expect(original.urls.allSatisfy { $0 != nil })
    let written = try Self.write(
      original, book: original.book, anonymizer: salt.map { URLAnonymizer(salt: Array($0.utf8)) })
    let back = try AccessLogTests.read(path: written, "cachelab")
    #expect(back.requests.count == original.requests.count)
    #expect(back.requests.map(\.time) == original.requests.map(\.time))
    #expect(back.requests.map(\.size) == original.requests.map(\.size))
    #expect(back.requests.map(\.operation) == original.requests.map(\.operation))
    // Keys, entity tags and resources: equal where they were, and only there.
    #expect(Self.samePartition(original.requests.map(\.key), back.requests.map(\.key)))
    #expect(Self.samePartition(original.attributes.map(\.etag), back.attributes.map(\.etag)))
    #expect(Self.samePartition(original.attributes.map(\.url.resource), back.attributes.map(\.url.resource)))
    #expect(back.attributes.map { $0.url.resource == 0 } == original.attributes.map { $0.url.resource == 0 })
    // Without a salt the URLs are the keys: the same hashes, the same resources.
    if salt == nil {
      #expect(back.requests.map(\.key) == original.requests.map(\.key))
      #expect(back.attributes.map(\.url) == original.attributes.map(\.url))
    }
    for (before, after) in zip(original.attributes, back.attributes) {
      var expected = before
      expected.etag = after.etag
      expected.url.resource = after.url.resource
      #expect(after == expected)
    }
    // The file under a salt names nothing of the original.
    let text = try String(contentsOfFile: written, encoding: .utf8)
    if salt != nil {
      for secret in ["example", "Example", "photo", "abc", "Abc", "items", "id=3", "User", "pw", "v1", "x,y"] {
        #expect(!text.contains(secret), "'\(secret)' is left in:\n\(text)")
      }
      #expect(text.contains(".JPG?"), "the extension and the query stay")
    }
  }

  @Test func theSameSaltGivesTheSameNamesAndAnotherOneOthers() {
    var first = URLAnonymizer(salt: Array("a".utf8))
    var again = URLAnonymizer(salt: Array("a".utf8))
    var other = URLAnonymizer(salt: Array("b".utf8))
    let url = "https://img.example.com:8443/a//b/photo.webp?w=100#top"
    let name = first.anonymize(url)
    #expect(name == again.anonymize(url))
    #expect(name != other.anonymize(url))
    // Scheme, port, depth (with the empty segment), extension, query and fragment are kept.
    let pattern =
      #/^https://[a-z2-7]{12}:8443/[a-z2-7]{12}//[a-z2-7]{12}/[a-z2-7]{12}\.webp\?[a-z2-7]{12}#[a-z2-7]{12}$/#
    #expect(name.wholeMatch(of: pattern) != nil, "\(name)")
  }
}
