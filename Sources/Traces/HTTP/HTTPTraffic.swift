import CacheCore

/// Turns a stream of ``HTTPRecord``s into requests, the same way for every HTTP reader.
///
/// - GET and HEAD become `get` requests; POST, PUT, PATCH and DELETE invalidate their URL
///   (RFC 9111 §4.4) as `delete` rows; any other method (CONNECT, OPTIONS, TRACE, …) and any
///   URL that is not http(s) (`data:`, `blob:`, extension URLs) is skipped and counted.
/// - The key is the hash of the absolute URL (the `cachelab` CSV's key for the same URL), so
///   a converted trace replays identically.
/// - The size is what a cache would store: the decoded body size, else the transferred body
///   size, else `Content-Length`. A 304, a HEAD or a record with no body takes the last size
///   seen for its URL, else the size the record states; a record with no size at all is
///   replayed with size 0 and counted.
/// - Versions come from the traffic: a URL's version starts at 1 and grows when a response
///   brings another ETag or Last-Modified than the last one seen, or — for a URL whose
///   responses carry no validators — another body size. A 304 keeps the version. So the
///   engine's revalidations answer 304 or 200 as the real origin did.
/// - A 304 is the origin's "unchanged": the engine's origin answers 200 with the stored body.
///
/// Memory: one small entry per distinct URL. Cost: O(1) per record.
struct HTTPTraffic {
  /// How many records went where, for the run header.
  struct Counts: Equatable {
    var records: Int64 = 0
    var requests: Int64 = 0
    var invalidations: Int64 = 0
    /// Skipped records by reason (`CONNECT`, `OPTIONS`, `data: URL`, …).
    var skipped: [String: Int64] = [:]
    var withoutSize: Int64 = 0
    var sizeFromLastResponse: Int64 = 0
    var observedUpstreamHits: Int64 = 0
    var observedUpstreamMisses: Int64 = 0
    var observedClientHits: Int64 = 0
  }

  private struct URLState {
    var size: Int64 = -1
    var etag: UInt64 = 0
    var lastModified: Int64 = RequestAttributes.absent
    var version: Int64 = 1
    var hasValidators = false
    /// The URL's parsed key, made at its first sight (a URL's key depends only on its text).
    var url = URLKey()
  }

  /// How far out of time order records may be and still be replayed in order (access logs
  /// are written when responses end, so a long response's line follows later requests').
  static let reorderWindow = ParameterSpec(
    "reorder-window", default: "60s", .duration,
    help: "records up to this much out of time order are put back in order (memory: the records in the window)")

  /// What every HTTP format carries: time, size and HTTP attributes.
  static let traits = TraceTraits(hasTime: true, hasSize: true, hasAttributes: true)

  private(set) var counts = Counts()
  /// The URL of each key, kept while a consumer records.
  let book = TrafficBook()
  private var urls = HashKeyedTable<URLState>()
  private var cacheControls = ByteMemo<CacheControl>()
  private var contentClasses = ByteMemo<ContentClass?>()
  /// Where the absolute URL of the record being mapped is assembled.
  private let scratch = ByteScratch()

  /// Fills `request` and `attributes` from `record`; false when the record is skipped.
  mutating func map(_ record: HTTPRecord, into request: inout Request, attributes: inout RequestAttributes) -> Bool {
    counts.records += 1
    book.tally(
      method: record.method.isEmpty ? "GET" : record.method, status: record.status ?? 200, host: Self.host(of: record))
    let operation: Request.Operation
    switch record.method {
    case "GET", "HEAD", "": operation = .get
    case "POST", "PUT", "PATCH", "DELETE": operation = .delete
    default:
      // Squid logs `-` for a connection that sent no request (NONE_NONE/000).
      let label = record.method.isEmpty ? "no method" : record.method == "-" ? "without a request" : record.method
      counts.skipped[label, default: 0] += 1
      return false
    }
    scratch.reset(capacity: Self.scratchNeeded(record))
    guard let url = Self.absoluteURL(record, in: scratch) else {
      counts.skipped[Self.skipReason(record.url.string), default: 0] += 1
      return false
    }
    let key = KeyHash.hash(url)
    request = Request(key: key, size: 0)
    book.record(key, String(decoding: url, as: UTF8.self))
    request.time = record.time
    request.operation = operation
    var row = RequestAttributes()
    // A URL's state is added at its first sight (as it would be made again later: the same).
    let entry = urls.entry(key) { URLState(url: URLKey(parsing: url)) }
    var state = urls[entry]
    row.url = state.url
    guard operation == .get else {
      counts.invalidations += 1
      attributes = row
      return true
    }
    let status = record.status ?? 200
    guard status != 0 else {
      counts.skipped["without a response (status 0)", default: 0] += 1
      return false
    }
    counts.requests += 1
    request.size = size(of: record, status: status, state: state)
    if status != 304, status >= 200, status < 300, let bodySize = statedBody(record),
      record.method != "HEAD"
    {
      if !state.hasValidators, state.size >= 0, bodySize != state.size, record.etag == nil,
        record.lastModified == nil
      {
        state.version += 1
      }
      state.size = bodySize
    }
    fillHeaders(record, status: status, into: &row)
    if status != 304, row.etag != 0 || row.lastModified != RequestAttributes.absent {
      let changed =
        state.hasValidators && (row.etag != state.etag || row.lastModified != state.lastModified)
      if changed { state.version += 1 }
      state.etag = row.etag
      state.lastModified = row.lastModified
      state.hasValidators = true
    }
    row.version = state.version
    row.observed = record.observed
    urls[entry] = state
    switch record.observed {
    case .unknown: break
    case .upstreamHit: counts.observedUpstreamHits += 1
    case .upstreamMiss: counts.observedUpstreamMisses += 1
    case .clientHit: counts.observedClientHits += 1
    }
    attributes = row
    return true
  }

  /// The most bytes ``absoluteURL(_:in:)`` appends for `record`: its URL, host and scheme.
  private static func scratchNeeded(_ record: HTTPRecord) -> Int {
    record.url.withBytes { $0.count } + (record.host?.withBytes { $0.count } ?? 0) + 8
  }

  /// The record's absolute http(s) URL — borrowed text as it is, otherwise assembled or
  /// copied in `scratch` (which has room for ``scratchNeeded(_:)`` bytes) — or nil for one a
  /// cache never sees.
  private static func absoluteURL(_ record: HTTPRecord, in scratch: ByteScratch) -> UnsafeRawBufferPointer? {
    record.url.withBytes { url in
      if url.first == UInt8(ascii: "/") {
        guard let host = record.host,
          !host.withBytes({ $0.isEmpty || ($0.count == 1 && $0[0] == UInt8(ascii: "-")) })
        else {
          return record.url.borrowedBytes ?? scratch.append(url)
        }
        let secure = record.scheme?.withBytes { ByteParsing.equalsIgnoringCase($0, "https") } ?? false
        let prefix: StaticString = secure ? "https://" : "http://"
        return host.withBytes { host in
          scratch.append(UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount), host, url)
        }
      }
      guard let colon = url.firstIndex(of: UInt8(ascii: ":")) else { return nil }
      let scheme = UnsafeRawBufferPointer(rebasing: url[..<colon])
      guard ByteParsing.equalsIgnoringCase(scheme, "http") || ByteParsing.equalsIgnoringCase(scheme, "https"),
        url.count >= colon + 3, url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/")
      else { return nil }
      return record.url.borrowedBytes ?? scratch.append(url)
    }
  }

  /// Why a URL a cache never sees was skipped: `no URL`, `not a URL` or its scheme (`data: URL`).
  private static func skipReason(_ url: String) -> String {
    guard let colon = url.firstIndex(of: ":") else { return url.isEmpty ? "no URL" : "not a URL" }
    let scheme = url[..<colon].lowercased()
    return scheme.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "+" || $0 == "." })
      ? "\(scheme): URL" : "not a URL"
  }

  /// The record's host, lower-cased, without credentials or port ("" when it has none).
  static func host(of record: HTTPRecord) -> String {
    let url = record.url.string
    var rest = Substring(url)
    if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
      rest = rest[rest.index(colon, offsetBy: 3)...]
      rest = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    } else if let host = record.host?.string {
      rest = Substring(host)
    } else if !rest.hasPrefix("/") {
      rest = rest.prefix { $0 != "/" }  // CONNECT's host:port
    } else {
      rest = ""
    }
    if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]") { rest = rest[..<colon] }
    return rest == "-" ? "" : rest.lowercased()
  }

  /// The body size stated by the record: decoded, else transferred, else `Content-Length`
  /// (the first above 0; 0 when they state only 0; nil when they state nothing).
  private func statedBody(_ record: HTTPRecord) -> Int64? {
    if let value = record.bodySize, value > 0 { return value }
    if let value = record.transferredBodySize, value > 0 { return value }
    if let value = record.contentLength, value > 0 { return value }
    return record.bodySize == 0 || record.transferredBodySize == 0 || record.contentLength == 0 ? 0 : nil
  }

  private mutating func size(of record: HTTPRecord, status: Int, state: URLState) -> Int64 {
    let bodiless = status == 304 || status == 204 || status < 200 || record.method == "HEAD"
    if bodiless || (statedBody(record) ?? 0) == 0 {
      if state.size >= 0 {
        counts.sizeFromLastResponse += 1
        return state.size
      }
      if let length = record.contentLength, length > 0 { return min(length, Request.maximumSize) }
    }
    if let body = statedBody(record), body > 0 || !bodiless { return min(body, Request.maximumSize) }
    counts.withoutSize += 1
    return 0
  }

  private mutating func fillHeaders(_ record: HTTPRecord, status: Int, into row: inout RequestAttributes) {
    row.status = Int16(clamping: status == 304 ? 200 : status)
    if let value = record.cacheControl {
      row.cacheControl = cacheControls.value(value) { CacheControl(parsing: String(decoding: $0, as: UTF8.self)) }
    }
    if let value = record.expires {
      row.expires = value.withBytes(HTTPTime.httpDate) ?? RequestAttributes.invalidDate
    }
    if let value = record.date, let time = value.withBytes(HTTPTime.httpDate) { row.date = time }
    if let value = record.lastModified, let time = value.withBytes(HTTPTime.httpDate) { row.lastModified = time }
    if let value = record.age, let seconds = value.withBytes({ ByteParsing.unsigned(ByteParsing.trim($0)) }) {
      row.age = Int64(min(seconds, UInt64(Int32.max)))
    }
    if let etag = record.etag {
      etag.withBytes { bytes in
        var value = ByteParsing.trim(bytes)
        guard !value.isEmpty else { return }
        if value.count >= 2, value[0] == UInt8(ascii: "W"), value[1] == UInt8(ascii: "/") {
          row.etagIsWeak = true
          value = UnsafeRawBufferPointer(rebasing: value[2...])
        }
        let hash = KeyHash.hash(value)
        row.etag = hash == 0 ? 1 : hash
      }
    }
    if let value = record.vary, !value.withBytes({ ByteParsing.trim($0).isEmpty }) {
      row.vary = true
      row.varyAll = value.withBytes { ByteParsing.trim($0).elementsEqual([UInt8(ascii: "*")]) }
    }
    row.setCookie = record.setCookie
    if let value = record.contentType {
      let parsed = contentClasses.value(value) {
        ContentClass(name: String(decoding: $0, as: UTF8.self).prefix { $0 != ";" })
      }
      if let parsed { row.contentClass = parsed }
    }
    row.authorization = record.authorization
    if let latency = record.latency, latency >= 0 { row.latency = latency }
  }

  /// One line for the run header: what was skipped, invalidated, sized from another response,
  /// or had no size; nil when every record became a request as it was.
  var summary: String? {
    var parts: [String] = []
    if counts.invalidations > 0 { parts.append("\(counts.invalidations) POST/PUT/PATCH/DELETE invalidations") }
    let skipped = counts.skipped.values.reduce(0, +)
    if skipped > 0 {
      let reasons = counts.skipped.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
      parts.append("\(skipped) skipped (\(reasons))")
    }
    if counts.sizeFromLastResponse > 0 {
      parts.append("\(counts.sizeFromLastResponse) sized from the URL's last response (304, HEAD or no body)")
    }
    if counts.withoutSize > 0 { parts.append("\(counts.withoutSize) with no size (replayed as 0 bytes)") }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}
