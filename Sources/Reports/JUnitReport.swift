/// A JUnit XML report (the format CI systems read): one test suite, one test case per check,
/// failed cases carrying their message and skipped ones their reason.
public struct JUnitReport {
  public struct Case {
    public var name: String
    /// nil: passed.
    public var failure: String?
    /// Set: not checked, and why.
    public var skipped: String?

    public init(name: String, failure: String? = nil, skipped: String? = nil) {
      self.name = name
      self.failure = failure
      self.skipped = skipped
    }
  }

  public var suite: String
  public var cases: [Case] = []

  public init(suite: String) {
    self.suite = suite
  }

  /// The XML text.
  public func render() -> String {
    let failures = cases.filter { $0.failure != nil }.count
    let skipped = cases.filter { $0.skipped != nil }.count
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text +=
      "<testsuites><testsuite name=\"\(Self.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
    for testCase in cases {
      text += "  <testcase classname=\"\(Self.escape(suite))\" name=\"\(Self.escape(testCase.name))\""
      if let failure = testCase.failure {
        text +=
          "><failure message=\"\(Self.escape(String(failure.prefix(200))))\">\(Self.escape(failure))</failure></testcase>\n"
      } else if let reason = testCase.skipped {
        text += "><skipped message=\"\(Self.escape(reason))\"/></testcase>\n"
      } else {
        text += "/>\n"
      }
    }
    return text + "</testsuite></testsuites>\n"
  }

  /// `text` with XML's special characters escaped and control characters dropped.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\n", "\t": result.unicodeScalars.append(scalar)
      default: if scalar.value >= 0x20 { result.unicodeScalars.append(scalar) }
      }
    }
    return result
  }
}
