import CacheCore

/// One HTTP exchange as a log line or a capture entry states it, before ``HTTPTraffic``
/// turns it into a request: what every HTTP reader fills, with nil for what its producer
/// does not write. Text fields may borrow the reader's line (see ``HTTPText``).
struct HTTPRecord {
  /// Microseconds since the Unix epoch when the request arrived.
  var time: Int64 = 0
  /// The request method, upper case (`GET`); empty when the producer gives none.
  var method: String = "GET"
  /// The URL as the record gives it: absolute (`https://host/path?q`), a path (`/path?q`,
  /// then ``host`` and ``scheme`` complete it), or `host:port` for CONNECT.
  var url: HTTPText = ""
  /// The `Host` (or server name) when the record has one.
  var host: HTTPText?
  /// `http` or `https` when the record says (nginx `$scheme`, W3C `cs-protocol`).
  var scheme: HTTPText?
  /// The response status: 0 when no response came (an aborted or failed request), nil when
  /// the record does not say (taken as 200).
  var status: Int?
  /// The decoded body size: what a cache stores.
  var bodySize: Int64?
  /// The body bytes sent on the wire (compressed, or 0 when a client cache answered).
  var transferredBodySize: Int64?
  /// The response's `Content-Length`.
  var contentLength: Int64?
  var cacheControl: HTTPText?
  var expires: HTTPText?
  var date: HTTPText?
  var lastModified: HTTPText?
  var age: HTTPText?
  var etag: HTTPText?
  var vary: HTTPText?
  /// The response carried `Set-Cookie`.
  var setCookie = false
  var contentType: HTTPText?
  /// The request carried `Authorization`, or the response asked for it (`WWW-Authenticate`).
  var authorization = false
  /// The origin's (or upstream's) time to answer, in microseconds.
  var latency: Int64?
  /// What a real cache on the path did with the request, when the record says.
  var observed: ObservedOutcome = .unknown
}

extension HTTPRecord {
  /// The method `bytes` name, upper case; the common ones without building a String.
  static func method(_ bytes: UnsafeRawBufferPointer) -> String {
    if ByteParsing.equalsIgnoringCase(bytes, "GET") { return "GET" }
    if ByteParsing.equalsIgnoringCase(bytes, "HEAD") { return "HEAD" }
    if ByteParsing.equalsIgnoringCase(bytes, "POST") { return "POST" }
    return String(decoding: bytes, as: UTF8.self).uppercased()
  }
}
