import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// The `access-log` format: NCSA common and combined lines and nginx `log_format`s become
/// requests with their HTTP attributes, in time order, with what was skipped stated.
@Suite struct AccessLogTests {
  struct Read {
    var requests: [Request] = []
    var attributes: [RequestAttributes] = []
    var notes: String?
    /// The URL each request's key stands for, as the reader's URL book recorded it.
    var urls: [String?] = []
    var book: TrafficBook?
  }

  static func read(_ text: String, _ format: String = "access-log", name: String = "access.log") throws -> Read {
    try read(path: Paths.temporaryFile(name, text: text), format)
  }

  /// Reads the trace at `path` in small batches, recording URLs where the reader has them.
  static func read(path: String, _ format: String) throws -> Read {
    let reader = try TraceSpec(parsing: format).open(path)
    reader.trafficBook?.isRecordingURLs = true
    var result = Read(book: reader.trafficBook)
    let batch = RequestBatch(capacity: 3)
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        result.requests.append(batch[index])
        result.attributes.append(batch.attributes(index))
        result.urls.append(reader.trafficBook?.text(of: batch[index].key))
      }
    }
    result.notes = reader.notes
    return result
  }

  static func key(_ url: String) -> UInt64 { KeyHash.hash(url) }

  @Test func combinedLinesBecomeRequestsWithTheirTimesAndSizes() throws {
    let log = """
      10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a.png HTTP/1.1" 200 2326 "-" "curl/8"
      10.0.0.1 - frank [10/Oct/2000:13:55:37 -0700] "HEAD /a.png HTTP/1.1" 200 0 "-" "curl/8"
      10.0.0.2 - - [10/Oct/2000:13:55:38 -0700] "GET /a.png HTTP/1.1" 304 0 "http://x/" "Mozilla/5.0 (X11)"
      10.0.0.2 - - [10/Oct/2000:13:55:39 -0700] "POST /a.png HTTP/1.1" 201 12 "-" "-"
      10.0.0.2 - - [10/Oct/2000:13:55:40 -0700] "CONNECT example.com:443 HTTP/1.1" 200 0 "-" "-"
      10.0.0.2 - - [10/Oct/2000:13:55:41 -0700] "OPTIONS * HTTP/1.1" 200 0 "-" "-"
      10.0.0.3 - - [10/Oct/2000:13:55:42 -0700] "GET /b?q=1 HTTP/1.1" 404 153 "-" "-"
      10.0.0.4 - - [10/Oct/2000:13:55:43 -0700] "\\x16\\x03\\x01\\x02\\x00\\x01" 400 157 "-" "-"

      """
    let read = try Self.read(log)
    // 971211336 s is 2000-10-10T20:55:36Z.
    #expect(read.requests.map(\.time) == [0, 1, 2, 3, 6].map { (971_211_336 + $0) * 1_000_000 })
    #expect(
      read.requests.map(\.key) == [
        Self.key("/a.png"), Self.key("/a.png"), Self.key("/a.png"), Self.key("/a.png"), Self.key("/b?q=1"),
      ])
    #expect(read.requests.map(\.operation) == [.get, .get, .get, .delete, .get])
    // HEAD and 304 take the size of the URL's last full response.
    #expect(read.requests.map(\.size) == [2326, 2326, 2326, 0, 153])
    #expect(read.attributes.map(\.status) == [200, 200, 200, 200, 404])
    let notes = try #require(read.notes)
    #expect(notes.contains("1 POST/PUT/PATCH/DELETE invalidations"), "\(notes)")
    #expect(notes.contains("3 skipped (1 CONNECT, 1 OPTIONS, 1 malformed request line)"), "\(notes)")
    #expect(notes.contains("2 sized from the URL's last response"), "\(notes)")
  }

  @Test func commonLogFormatIsRecognisedToo() throws {
    let read = try Self.read(
      "127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326\n"
        + "127.0.0.1 - - [10/Oct/2000:20:55:37 +0000] \"GET /x HTTP/1.0\" 200 -\n")
    #expect(read.requests.map(\.size) == [2326, 0])
    #expect(read.requests.map(\.time) == [971_211_336 * 1_000_000, 971_211_337 * 1_000_000])
    // Apache's `-` is a body of 0 bytes, not a missing size.
    #expect(read.notes == nil, "\(read.notes ?? "")")
  }

  /// An nginx `log_format` with the variables a cache needs: the host completes the URL, the
  /// request time moves the record to its arrival, headers (escaped as nginx writes them)
  /// become attributes, and a new ETag makes a new version.
  @Test func nginxLogFormatFillsTheHTTPAttributes() throws {
    let format =
      #"access-log:log-format='$msec $scheme $host "$request" $status $body_bytes_sent $request_time "$sent_http_cache_control" "$sent_http_etag" "$sent_http_last_modified" "$sent_http_content_type" $upstream_cache_status $upstream_response_time'"#
    let log = """
      1700000000.500 https cdn.example.com "GET /i/1.jpg HTTP/2.0" 200 5000 0.250 "max-age=60, public" "\\x22v1\\x22" "Tue, 14 Nov 2023 22:00:00 GMT" "image/jpeg" MISS 0.200
      1700000001.000 https cdn.example.com "GET /i/1.jpg HTTP/2.0" 200 5000 0.001 "max-age=60, public" "\\x22v1\\x22" "Tue, 14 Nov 2023 22:00:00 GMT" "image/jpeg" HIT -
      1700000100.000 https cdn.example.com "GET /i/1.jpg HTTP/2.0" 200 6000 0.100 "max-age=60, public" "\\x22v2\\x22" "Tue, 14 Nov 2023 22:01:00 GMT" "image/jpeg" EXPIRED 0.050, 0.040
      1700000200.000 https cdn.example.com "GET /i/1.jpg HTTP/2.0" 304 0 0.010 "max-age=60, public" "\\x22v2\\x22" "-" "-" REVALIDATED 0.005

      """
    let read = try Self.read(log, format, name: "cdn.log")
    #expect(read.requests.count == 4)
    #expect(Set(read.requests.map(\.key)) == [Self.key("https://cdn.example.com/i/1.jpg")])
    #expect(
      read.requests.map(\.time) == [
        1_700_000_000_250_000, 1_700_000_000_999_000, 1_700_000_099_900_000, 1_700_000_199_990_000,
      ])
    #expect(read.requests.map(\.size) == [5000, 5000, 6000, 6000])
    #expect(read.attributes.map(\.version) == [1, 1, 2, 2])
    #expect(read.attributes.map(\.latency) == [200_000, -1, 90_000, 5_000])
    #expect(read.attributes[0].url.scheme == .https)
    #expect(read.attributes[0].cacheControl.maxAge == 60)
    #expect(read.attributes[0].contentClass == .image)
    #expect(read.attributes[0].etag == KeyHash.hash("\"v1\"") && read.attributes[2].etag == KeyHash.hash("\"v2\""))
    // Tue, 14 Nov 2023 22:00:00 GMT
    #expect(read.attributes[0].lastModified == 1_699_999_200_000_000)
    #expect(read.attributes[3].status == 200)
  }

  /// Servers log when a response ends: a long response's line comes after later requests'.
  @Test func recordsOutOfTimeOrderAreReplayedInOrder() throws {
    let format = "access-log:log-format='$msec \"$request\" $status $body_bytes_sent',reorder-window=10s"
    let log = [
      "100.000 \"GET /a HTTP/1.1\" 200 1", "101.000 \"GET /b HTTP/1.1\" 200 2", "100.500 \"GET /c HTTP/1.1\" 200 3",
      "101.000 \"GET /d HTTP/1.1\" 200 4", "130.000 \"GET /e HTTP/1.1\" 200 5", "150.000 \"GET /g HTTP/1.1\" 200 7",
      "105.000 \"GET /f HTTP/1.1\" 200 6",
    ].joined(separator: "\n")
    let read = try Self.read(log, format, name: "order.log")
    // /f is 45 s late: /e (130 s) was already replayed when it came, so it follows /e at 130 s.
    #expect(read.requests.map(\.size) == [1, 3, 2, 4, 5, 6, 7])
    #expect(read.requests.map(\.time) == [100, 100.5, 101, 101, 130, 130, 150].map { Int64($0 * 1_000_000) })
    let notes = try #require(read.notes)
    #expect(notes.contains("2 out of time order in the file"), "\(notes)")
    #expect(notes.contains("1 later than that replayed at the time before them"), "\(notes)")
  }

  /// Seeded logs whose lines are at most the window late come out as a stable sort by time
  /// (ties in file order), however they interleave; the batch size of the read does not matter.
  @Test(arguments: [1, 2, 3, 4, 5]) func lateLinesWithinTheWindowComeOutStablySorted(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    var lines: [(time: Int64, size: Int)] = []
    var clock: Int64 = 1_000_000
    for index in 0..<5_000 {
      clock += Int64(generator.next() % 3) * 250_000  // ties are frequent
      // One line in four ended later than it started by up to the 10 s window.
      let late = generator.next() % 4 == 0 ? Int64(generator.next() % 10_000_000) : 0
      lines.append((max(0, clock - late), index + 1))
    }
    let format = "access-log:log-format='$msec \"$request\" $status $body_bytes_sent',reorder-window=10s"
    let text = lines.map { line in
      "\(line.time / 1_000_000).\(String(line.time % 1_000_000 + 1_000_000).dropFirst()) \"GET /\(line.size % 97) HTTP/1.1\" 200 \(line.size)"
    }.joined(separator: "\n")
    let read = try Self.read(text, format, name: "late-\(seed).log")
    let expected = lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
    #expect(read.requests.map(\.size) == expected.map { Int64($0.element.size) })
    #expect(read.requests.map(\.time) == expected.map(\.element.time))
    #expect(read.notes?.contains("later than that") != true, "\(read.notes ?? "")")
  }

  /// RFC 9211 `Cache-Status`: the last member is the cache nearest the client; `hit` is a hit,
  /// `fwd` a miss unless the origin revalidated with 304.
  @Test func theStandardCacheStatusHeaderSaysWhatTheCacheDid() throws {
    let format = "access-log:log-format='$msec \"$request\" $status $body_bytes_sent \"$sent_http_cache_status\"'"
    let statuses: [(String, ObservedOutcome)] = [
      ("ExampleCache; hit", .upstreamHit),
      ("Origin; fwd=uri-miss, Edge; fwd=stale; fwd-status=304", .upstreamHit),
      ("Edge; fwd=uri-miss; stored", .upstreamMiss),
      ("Edge; hit, Proxy; fwd=uri-miss", .upstreamMiss),
      ("-", .unknown),
      ("Edge; detail=xyz", .unknown),
    ]
    let log = statuses.enumerated().map { index, status in
      "\(100 + index).000 \"GET /\(index) HTTP/1.1\" 200 10 \"\(status.0)\""
    }.joined(separator: "\n")
    let read = try Self.read(log, format, name: "cache-status.log")
    #expect(read.attributes.map(\.observed) == statuses.map(\.1))
  }

  @Test func accessLogsAreRecognisedByContent() throws {
    let path = Paths.temporaryFile(
      "server.log", text: "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"\n")
    let spec = try TraceSpec(format: nil, inferringFrom: path)
    #expect(spec.format.name == "access-log")
    #expect(spec.note?.contains("combined") == true, "\(spec.note ?? "")")
  }

  @Test func badLinesNameTheirLine() throws {
    let path = Paths.temporaryFile(
      "bad.log",
      text: "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5\n"
        + "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 2x0 5\n")
    ReaderTests.expectError(path, "access-log", record: 2, containing: "status '2x0'")
    let time = Paths.temporaryFile(
      "badtime.log", text: "1.2.3.4 - - [31/Feb/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5\n")
    ReaderTests.expectError(time, "access-log:log-format=common", record: 1, containing: "$time_local")
    #expect(throws: (any Error).self) {
      try TraceSpec(parsing: "access-log:log-format='$status$body_bytes_sent'").open(path)
    }
  }

  /// The time stamps of HTTP dates in all three RFC 9110 forms agree.
  @Test func httpDatesInEveryFormAgree() throws {
    let format = "access-log:log-format='[$time_local] \"$request\" $status $body_bytes_sent \"$sent_http_expires\"'"
    let lines = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "0"]
      .map { "[06/Nov/1994:08:49:37 +0000] \"GET /x HTTP/1.1\" 200 1 \"\($0)\"" }
    let read = try Self.read(lines.joined(separator: "\n"), format, name: "dates.log")
    #expect(
      read.attributes.map(\.expires) == [
        784_111_777_000_000, 784_111_777_000_000, 784_111_777_000_000, RequestAttributes.invalidDate,
      ])
    #expect(read.requests.allSatisfy { $0.time == 784_111_777_000_000 })
  }
}

/// The `squid` format: native access.log lines, their result codes as observed outcomes.
@Suite struct SquidLogTests {
  @Test func squidLinesBecomeRequestsWithTheCachesOutcome() throws {
    let log = """
      1700000000.500    250 10.0.0.1 TCP_MISS/200 5300 GET http://example.com/a.png - HIER_DIRECT/93.184.216.34 image/png
      1700000001.000      1 10.0.0.1 TCP_MEM_HIT/200 5300 GET http://example.com/a.png - HIER_NONE/- image/png
      1700000002.000     40 10.0.0.1 TCP_REFRESH_UNMODIFIED_ABORTED/304 250 GET http://example.com/a.png - HIER_DIRECT/93.184.216.34 -
      1700000003.000   1000 10.0.0.1 TCP_TUNNEL/200 9000 CONNECT example.com:443 - HIER_DIRECT/93.184.216.34 -
      1700000004.000      2 10.0.0.1 NONE_NONE/400 3900 GET error:invalid-request - HIER_NONE/- text/html

      """
    let read = try AccessLogTests.read(log, "squid", name: "squid-access.log")
    #expect(read.requests.count == 3)
    #expect(Set(read.requests.map(\.key)) == [KeyHash.hash("http://example.com/a.png")])
    #expect(read.requests.map(\.time) == [1_700_000_000_250_000, 1_700_000_000_999_000, 1_700_000_001_960_000])
    #expect(read.requests.map(\.size) == [5300, 5300, 5300])
    #expect(read.attributes.map(\.observed) == [.upstreamMiss, .upstreamHit, .upstreamHit])
    #expect(read.attributes.map(\.latency) == [250_000, -1, -1])
    #expect(read.attributes[0].contentClass == .image)
    let notes = try #require(read.notes)
    #expect(notes.contains("2 skipped (1 CONNECT, 1 error: URL)"), "\(notes)")
    let spec = try TraceSpec(format: nil, inferringFrom: Paths.temporaryFile("cache.log", text: log))
    #expect(spec.format.name == "squid")
  }
}

extension SquidLogTests {
  @Test func logMimeHeadersGiveTheResponseHeaders() throws {
    // `log_mime_hdrs on`: escaped as Format::QuoteMimeBlob escapes (\r \n, %xx for %, [, ],
    // control bytes; a backslash doubled). The URL has brackets of its own (IPv6).
    let reply =
      #"HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nCache-Control: must-revalidate\r\nETag: "v%5b1%5d"\r\n"#
      + #"Last-Modified: Sat, 07 Nov 2026 00:32:54 GMT\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n"#
      + #"X-Odd: a\\b 50%25\r\n\r\n"#
    let log = """
      1700000000.500    250 10.0.0.1 TCP_MISS/200 1210 GET http://[::1]:8080/a.jpg - HIER_DIRECT/::1 image/jpeg [Host: [::1]\\r\\nAuthorization: Basic eA==\\r\\n] [\(reply)]
      1700000001.000      1 10.0.0.1 TCP_MEM_HIT/200 1210 GET http://[::1]:8080/a.jpg - HIER_NONE/- image/jpeg [] [\(reply)]
      1700000002.000      2 10.0.0.1 TCP_MISS/200 900 GET http://[::1]:8080/b.jpg - HIER_DIRECT/::1 -
      1700000003.000      0 10.0.0.1 NONE_NONE/000 0 - error:transaction-end-before-headers - HIER_NONE/- - [] []

      """
    let read = try AccessLogTests.read(log, "squid", name: "squid-access.log")
    #expect(read.requests.count == 3)
    #expect(read.requests[0].key == KeyHash.hash("http://[::1]:8080/a.jpg"))
    // The body is Content-Length (the logged bytes count the reply headers too).
    #expect(read.requests.map(\.size) == [1000, 1000, 900])
    let first = read.attributes[0]
    #expect(first.cacheControl.maxAge == 60 && first.cacheControl.mustRevalidate)
    #expect(first.etag == KeyHash.hash("\"v[1]\""))
    #expect(first.lastModified == 1_794_011_574_000_000)
    #expect(first.authorization && !read.attributes[1].authorization)
    #expect(read.attributes[2].cacheControl.isPresent == false)
    #expect(read.attributes.map(\.observed) == [.upstreamMiss, .upstreamHit, .upstreamMiss])
    #expect(read.notes?.contains("1 skipped (1 without a request)") == true, "\(read.notes ?? "")")
  }
}

/// The `w3c` format: CloudFront standard logs and IIS logs through their `#Fields:` line.
@Suite struct W3CLogTests {
  static let cloudFrontFields =
    "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"

  static func cloudFront(_ time: String, _ result: String, _ stem: String, query: String = "-", taken: String) -> String
  {
    [
      "2019-12-04", time, "FRA2-C1", "5343", "192.0.2.100", "GET", "d111111abcdef8.cloudfront.net", stem, "200", "-",
      "Mozilla/5.0%20(Macintosh)", query, "-", result, "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==",
      "www.example.com", "https", "23", taken, "-", "TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256", result, "HTTP/2.0", "-",
      "-", "11040", "0.001", result, "text/html", "78", "-", "-",
    ].joined(separator: "\t")
  }

  @Test func cloudFrontLogsGiveTheEdgeOutcome() throws {
    let log =
      [
        "#Version: 1.0", "#Fields: " + Self.cloudFrontFields,
        Self.cloudFront("21:02:31", "Miss", "/index%20page.html", query: "a=1", taken: "0.250"),
        Self.cloudFront("21:02:32", "Hit", "/index%20page.html", query: "a=1", taken: "0.001"),
        Self.cloudFront("21:02:33", "RefreshHit", "/index%20page.html", query: "a=1", taken: "0.050"),
        Self.cloudFront("21:02:34", "Error", "/missing", taken: "0.010"),
      ].joined(separator: "\n") + "\n"
    let read = try AccessLogTests.read(log, "w3c", name: "E2EXAMPLE.2019-12-04-21.d71a1a2c")
    #expect(read.requests.count == 4)
    #expect(read.requests[0].key == KeyHash.hash("https://www.example.com/index page.html?a=1"))
    // 2019-12-04T21:02:31Z is 1575493351 s; time-taken is in seconds.
    #expect(
      read.requests.map(\.time) == [
        1_575_493_350_750_000, 1_575_493_351_999_000, 1_575_493_352_950_000, 1_575_493_353_990_000,
      ])
    #expect(read.attributes.map(\.observed) == [.upstreamMiss, .upstreamHit, .upstreamHit, .unknown])
    #expect(read.attributes.map(\.latency) == [250_000, -1, -1, 10_000])
    let spec = try TraceSpec(format: nil, inferringFrom: Paths.temporaryFile("cf.log", text: log))
    #expect(spec.format.name == "w3c")
  }

  @Test func iisLogsTakeMillisecondsAndRereadTheirFields() throws {
    let log = """
      #Software: Microsoft Internet Information Services 10.0
      #Version: 1.0
      #Date: 2024-01-02 03:04:05
      #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken
      2024-01-02 03:04:05 10.0.0.1 GET /img/a.png - 443 - 10.0.0.9 Mozilla/5.0+(Windows) - 200 0 0 15
      #Fields: date time cs-method cs-uri-stem sc-status sc-bytes time-taken
      2024-01-02 03:04:06 GET /img/a.png 200 900 1000
      2024-01-02 03:04:07 POST /img/a.png 200 10 5

      """
    let read = try AccessLogTests.read(log, "w3c", name: "u_ex240102.log")
    #expect(read.requests.map(\.key) == Array(repeating: KeyHash.hash("/img/a.png"), count: 3))
    #expect(read.requests.map(\.operation) == [.get, .get, .delete])
    // 2024-01-02T03:04:05Z is 1704164645 s; time-taken in milliseconds.
    #expect(read.requests.map(\.time) == [1_704_164_644_985_000, 1_704_164_645_000_000, 1_704_164_646_995_000])
    #expect(read.requests[1].size == 900)
  }
}
