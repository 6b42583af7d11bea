import CacheCore
import Testing

/// URL keys: scheme, credentials and the host + port + path identity Linux URLCache keys by
/// (spellings checked against Foundation's `URL` on this toolchain).
@Suite struct URLKeyTests {
  @Test func schemeAndCredentials() {
    #expect(URLKey(parsing: "https://cdn.example.com/a.jpg").scheme == .https)
    #expect(URLKey(parsing: "HTTP://cdn.example.com/a.jpg").scheme == .http)
    #expect(URLKey(parsing: "ftp://h/a").scheme == .other)
    #expect(URLKey(parsing: "12345").scheme == .none && URLKey(parsing: "12345").resource == 0)
    #expect(URLKey(parsing: "not a url").scheme == .none)
    #expect(URLKey(parsing: "http://user:pw@h/a").hasCredentials)
    #expect(!URLKey(parsing: "http://h/a@b").hasCredentials, "an @ in the path is not userinfo")
    #expect(URLKey(parsing: "http://h/abc").length == 12)
  }

  @Test(arguments: [
    ("http://Img.Example.com/a.png?x=1", "https://img.example.com/a.png?x=2#f"),
    ("http://h/a/", "http://h/a"), ("http://h/a//", "http://h/a"), ("http://h/p%41", "http://h/pA"),
    ("http://h/p%2F", "http://h/p"), ("http://h/%7e", "http://h/~"), ("http://u@h/a", "http://h/a"),
    ("http://h:/a", "http://h/a"), ("http://[::1]:8/a", "http://[::1]:8/a?y"),
  ])
  func sameResource(_ a: String, _ b: String) {
    #expect(URLKey(parsing: a).resource == URLKey(parsing: b).resource, "\(a) vs \(b)")
    #expect(URLKey(parsing: a).resource != 0)
  }

  @Test(arguments: [
    ("http://h/a", "http://h:80/a"), ("http://h/a", "http://h/A"), ("http://h", "http://h/"),
    ("http://h/a;x", "http://h/a"), ("http://h/a", "http://g/a"),
  ])
  func differentResources(_ a: String, _ b: String) {
    #expect(URLKey(parsing: a).resource != URLKey(parsing: b).resource, "\(a) vs \(b)")
  }
}
