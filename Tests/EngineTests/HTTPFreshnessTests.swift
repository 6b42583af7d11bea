import CacheCore
import Engine
import Testing

/// RFC 9111 calculations against hand-worked examples (times in seconds, converted to µs).
@Suite struct HTTPFreshnessTests {
  static func s(_ seconds: Int64) -> Int64 { seconds * 1_000_000 }

  @Test func cacheControlParsing() {
    let cc = CacheControl(parsing: "Public, MAX-AGE=\"60\", stale-while-revalidate=30, no-cache, x-ext=1")
    #expect(cc.isPresent && cc.isPublic && cc.noCache)
    #expect(cc.maxAge == 60 && cc.staleWhileRevalidate == 30 && cc.staleIfError == -1)
    #expect(!cc.isInvalid)
    #expect(CacheControl(parsing: "max-age=60, max-age=120").isInvalid, "a duplicate is invalid")
    #expect(CacheControl(parsing: "max-age=soon").isInvalid)
    #expect(CacheControl(parsing: "max-age=99999999999").maxAge == Int64(Int32.max), "clamped to 2^31")
    #expect(!CacheControl().isPresent)
  }

  /// Example: a response with `Date: 1000`, `Age: 20`, requested at 1009, received at 1010,
  /// `max-age=100`. apparent_age = max(0, 1010 − 1000) = 10; response_delay = 1; corrected
  /// age value = 20 + 1 = 21; corrected initial age = max(10, 21) = 21. At 1050 the resident
  /// time is 40, so the current age is 61 < 100: fresh; at 1089 the age is exactly 100: stale
  /// (freshness requires lifetime > age).
  @Test func ageFormulaAndMaxAge() {
    let response = HTTPFreshness.Response(
      cacheControl: CacheControl(parsing: "max-age=100"), date: Self.s(1000), age: 20, requestTime: Self.s(1009),
      responseTime: Self.s(1010))
    #expect(HTTPFreshness.lifetime(response) == Self.s(100))
    #expect(HTTPFreshness.currentAge(response, now: Self.s(1050)) == Self.s(61))
    #expect(HTTPFreshness.isFresh(response, now: Self.s(1050)))
    #expect(HTTPFreshness.currentAge(response, now: Self.s(1089)) == Self.s(100))
    #expect(!HTTPFreshness.isFresh(response, now: Self.s(1089)))
  }

  /// `Expires` − `Date` is the lifetime when there is no max-age; max-age wins over Expires;
  /// an invalid Expires means already expired; without Date the receive time is used.
  @Test func expiresAndPrecedence() {
    var response = HTTPFreshness.Response(
      expires: Self.s(1600), date: Self.s(1000), requestTime: Self.s(1000), responseTime: Self.s(1000))
    #expect(HTTPFreshness.lifetime(response) == Self.s(600))
    response.cacheControl = CacheControl(parsing: "max-age=60")
    #expect(HTTPFreshness.lifetime(response) == Self.s(60))
    response.cacheControl = CacheControl()
    response.expires = RequestAttributes.invalidDate
    #expect(HTTPFreshness.lifetime(response) == 0)
    let noDate = HTTPFreshness.Response(expires: Self.s(1300), requestTime: Self.s(1100), responseTime: Self.s(1200))
    #expect(HTTPFreshness.lifetime(noDate) == Self.s(100))
  }

  /// Heuristic: 10 % of Date − Last-Modified, only for heuristically cacheable statuses.
  @Test func heuristicFreshness() {
    var response = HTTPFreshness.Response(
      date: Self.s(10_000), lastModified: Self.s(1000), requestTime: Self.s(10_000), responseTime: Self.s(10_000))
    #expect(HTTPFreshness.lifetime(response) == Self.s(900))
    #expect(HTTPFreshness.lifetime(response, heuristic: 0.2) == Self.s(1800))
    response.status = 302
    #expect(HTTPFreshness.lifetime(response) == 0, "302 is not heuristically cacheable")
    response.lastModified = RequestAttributes.absent
    response.status = 200
    #expect(HTTPFreshness.lifetime(response) == 0, "no Last-Modified, no heuristic")
  }

  /// `s-maxage` (§5.2.2.10) sets a shared cache's lifetime and is ignored by a private one;
  /// a shared cache does not store `private` responses and treats `proxy-revalidate` like
  /// `must-revalidate`. Response: Date 1000, received at 1000, `max-age=60, s-maxage=600`.
  @Test func sharedCachesUseSMaxAge() throws {
    let response = HTTPFreshness.Response(
      cacheControl: CacheControl(parsing: "max-age=60, s-maxage=600"), date: Self.s(1000), requestTime: Self.s(1000),
      responseTime: Self.s(1000))
    #expect(HTTPFreshness.lifetime(response) == Self.s(60))
    #expect(HTTPFreshness.lifetime(response, shared: true) == Self.s(600))
    #expect(!HTTPFreshness.isFresh(response, now: Self.s(1100)))
    #expect(HTTPFreshness.isFresh(response, now: Self.s(1100), shared: true))
    let privateResponse = HTTPFreshness.Response(
      cacheControl: CacheControl(parsing: "private, max-age=60"), requestTime: 0, responseTime: 0)
    #expect(HTTPFreshness.isStorable(privateResponse))
    #expect(!HTTPFreshness.isStorable(privateResponse, shared: true))
    let proxy = CacheControl(parsing: "max-age=60, proxy-revalidate")
    #expect(!HTTPFreshness.forbidsStale(proxy) && HTTPFreshness.forbidsStale(proxy, shared: true))
    #expect(try ExpiryModel(parsing: "http:shared") == .http(heuristic: 0.1, shared: true))
    #expect(try ExpiryModel(parsing: "http:heuristic=0.2,shared").description == "http:heuristic=0.2,shared")
    #expect(throws: ConfigurationError.self) { try ExpiryModel(parsing: "http:sharde") }
  }

  @Test func storability() {
    func storable(_ cc: String, status: Int16 = 200) -> Bool {
      HTTPFreshness.isStorable(
        HTTPFreshness.Response(cacheControl: CacheControl(parsing: cc), status: status, requestTime: 0, responseTime: 0)
      )
    }
    #expect(!storable("no-store"))
    #expect(storable("no-cache"), "no-cache may be stored, but must be validated")
    #expect(storable("max-age=60", status: 302))
    #expect(!storable("", status: 302), "no explicit expiry and not heuristically cacheable")
    #expect(storable("", status: 404))
  }
}
