import CacheCore

/// Who wrote a HAR (`log.creator.name`: Chrome writes `WebInspector`, Safari `WebKit Web
/// Inspector`), which decides the size field that holds the decoded body and how a
/// browser-cache hit is marked (producers' sources are cited in Traces/README.md).
enum HARProducer: Equatable {
  case chrome, firefox, safari, mitmproxy, webPageTest, other

  init(creator name: String) {
    let lowered = name.lowercased()
    if lowered.contains("webpagetest") || lowered.contains("wptagent") {
      self = .webPageTest
    } else if lowered.contains("mitmproxy") {
      self = .mitmproxy
    } else if lowered.contains("firefox") {
      self = .firefox
    } else if lowered.contains("webkit") || lowered.contains("safari") {
      self = .safari
    } else if lowered == "webinspector" || lowered.contains("chrome") || lowered.contains("chromium")
      || lowered.contains("devtools") || lowered.contains("edge")
    {
      self = .chrome
    } else {
      self = .other
    }
  }

  /// The producer's name for the run header.
  var name: String {
    switch self {
    case .chrome: "Chrome"
    case .firefox: "Firefox"
    case .safari: "Safari"
    case .mitmproxy: "mitmproxy"
    case .webPageTest: "WebPageTest"
    case .other: "generic"
    }
  }

  /// Which field gives the size, for the run header.
  var sizeField: String {
    switch self {
    case .mitmproxy: "content.size + content.compression (decoded)"
    case .webPageTest: "_objectSizeUncompressed (decoded), else content.size"
    case .firefox: "content.size (decoded), else bodySize - headersSize"
    default: "content.size (decoded), else bodySize"
    }
  }
}

/// The fields of one HAR entry a cache needs, as they are read.
struct HAREntry {
  var started: Int64?
  var method = ""
  var url = ""
  var status: Int?
  var requestHeaders = HeaderFields()
  var responseHeaders = HeaderFields()
  var contentSize: Double?
  var compression: Double?
  var bodySize: Double?
  var headersSize: Double?
  var transferSize: Double?
  var wait: Double?
  var receive: Double?
  var serverAddress: String?
  var fromCache: String?
  var fetchType: String?
  var objectSizeUncompressed: Double?

  /// The headers kept, by lowercased name; repeated headers are joined with `, ` (RFC 9110 §5.3).
  struct HeaderFields {
    var values: [String: String] = [:]
    static let kept: Set<String> = [
      "cache-control", "expires", "date", "last-modified", "age", "etag", "vary", "content-type", "content-length",
      "authorization", "www-authenticate", "set-cookie", "cache-status", "x-cache", "x-cache-status", "cf-cache-status",
    ]

    mutating func add(_ name: String, _ value: String) {
      let lowered = name.lowercased()
      guard Self.kept.contains(lowered) else { return }
      values[lowered] = values[lowered].map { $0 + ", " + value } ?? value
    }

    subscript(name: String) -> String? { values[name] }
  }

  /// `startedDateTime` (ISO 8601, any fraction and zone) in microseconds since the epoch.
  static func time(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { HTTPTime.iso8601(UnsafeRawBufferPointer($0)) }
  }

  mutating func readRequest(_ stream: inout JSONStream) throws(JSONStreamError) {
    try stream.object { (stream, key) throws(JSONStreamError) in
      switch key {
      case "method": method = (try stream.optionalString() ?? "").uppercased()
      case "url": url = try stream.optionalString() ?? ""
      case "headers": try Self.readHeaders(&stream, into: &requestHeaders)
      default: try stream.skipValue()
      }
    }
  }

  mutating func readResponse(_ stream: inout JSONStream) throws(JSONStreamError) {
    try stream.object { (stream, key) throws(JSONStreamError) in
      switch key {
      case "status": status = try stream.number().map { Int(clamping: Int64($0.isFinite ? $0 : 0)) }
      case "headers": try Self.readHeaders(&stream, into: &responseHeaders)
      case "bodySize": bodySize = try stream.number()
      case "headersSize": headersSize = try stream.number()
      case "_transferSize": transferSize = try stream.number()
      case "content":
        try stream.object { (stream, field) throws(JSONStreamError) in
          switch field {
          case "size": contentSize = try stream.number()
          case "compression": compression = try stream.number()
          default: try stream.skipValue()
          }
        }
      default: try stream.skipValue()
      }
    }
  }

  mutating func readTimings(_ stream: inout JSONStream) throws(JSONStreamError) {
    try stream.object { (stream, key) throws(JSONStreamError) in
      switch key {
      case "wait": wait = try stream.number()
      case "receive": receive = try stream.number()
      default: try stream.skipValue()
      }
    }
  }

  static func readHeaders(_ stream: inout JSONStream, into headers: inout HeaderFields) throws(JSONStreamError) {
    guard try stream.peekValue() == UInt8(ascii: "[") else {
      try stream.skipValue()
      return
    }
    try stream.array { (stream) throws(JSONStreamError) in
      var name: String?
      var value: String?
      try stream.object { (stream, key) throws(JSONStreamError) in
        switch key {
        case "name": name = try stream.optionalString()
        case "value": value = try stream.optionalString()
        default: try stream.skipValue()
        }
      }
      if let name, let value { headers.add(name, value) }
    }
  }

  /// The entry as a record, sized and marked the way `producer` writes its fields.
  func record(producer: HARProducer) -> HTTPRecord {
    var record = HTTPRecord()
    record.time = started ?? 0
    record.method = method
    record.url = HTTPText(url)
    record.status = status ?? 0
    func bytes(_ value: Double?) -> Int64? {
      guard let value, value.isFinite, value >= 0 else { return nil }
      return Int64(min(value, Double(Request.maximumSize)))
    }
    switch producer {
    case .mitmproxy:
      record.bodySize = bytes(contentSize).map { $0 + (bytes(compression) ?? 0) }
    case .webPageTest:
      record.bodySize = bytes(objectSizeUncompressed) ?? bytes(contentSize)
    default:
      record.bodySize = bytes(contentSize)
    }
    if var transferred = bytes(bodySize) {
      if producer == .firefox, let headers = bytes(headersSize) { transferred = max(0, transferred - headers) }
      record.transferredBodySize = transferred
    }
    record.take(response: responseHeaders, request: requestHeaders)
    if let value = responseHeaders["cache-status"] { record.observed = HTTPCacheHeaders.cacheStatus(value) }
    for name in ["x-cache", "x-cache-status", "cf-cache-status"] {
      if let value = responseHeaders[name], record.observed == .unknown {
        record.observed = HTTPCacheHeaders.outcome(value)
      }
    }
    if clientCacheHit(producer: producer) {
      record.observed = .clientHit
    } else if let wait, wait >= 0, receive.map({ $0 >= 0 }) ?? true {
      // Request sent to first byte: the round trip. The engine adds the body's transfer at the
      // origin's bandwidth, so the receive time would count twice.
      record.latency = Int64(wait * 1_000)
    }
    return record
  }

  /// Whether the recording browser answered from its own cache: Chrome's `_fromCache`
  /// (memory or disk), Safari's `_fetchType` (Memory Cache, Disk Cache), and for Firefox, which
  /// marks nothing, a response other than 304 with no header bytes and no server address
  /// (Firefox 111 writes its memory-cache answers with `bodySize` -1 and no headers, its
  /// disk-cache answers with the stored sizes and `headersSize` 0; Firefox 45 wrote `bodySize` 0).
  func clientCacheHit(producer: HARProducer) -> Bool {
    if let fromCache, !fromCache.isEmpty { return true }
    if let fetchType, fetchType == "Memory Cache" || fetchType == "Disk Cache" { return true }
    if producer == .firefox, let status, status != 304, status != 0, (headersSize ?? 0) <= 0, serverAddress == nil {
      return true
    }
    return false
  }
}

extension HTTPRecord {
  /// Takes what the engine reads from a response's headers (Cache-Control, Expires, Date,
  /// Last-Modified, Age, ETag, Vary, Set-Cookie, Content-Type, Content-Length) and credentials from the
  /// request's Authorization or the response's WWW-Authenticate.
  mutating func take(response: HAREntry.HeaderFields, request: HAREntry.HeaderFields) {
    if let length = response["content-length"] { contentLength = Int64(Substring(length).trimmingSpaces()) }
    cacheControl = HTTPText?(response["cache-control"])
    expires = HTTPText?(response["expires"])
    date = HTTPText?(response["date"])
    lastModified = HTTPText?(response["last-modified"])
    age = HTTPText?(response["age"])
    etag = HTTPText?(response["etag"])
    vary = HTTPText?(response["vary"])
    setCookie = response["set-cookie"] != nil
    contentType = HTTPText?(response["content-type"])
    authorization = request["authorization"] != nil || response["www-authenticate"] != nil
  }
}
