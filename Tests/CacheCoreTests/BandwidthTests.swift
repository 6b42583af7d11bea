import CacheCore
import Testing

/// Transfer rates: bytes and bits, decimal and binary prefixes, and printing that reads back.
@Suite struct BandwidthTests {
  @Test(arguments: [
    ("25Mbit/s", 3_125_000.0), ("25Mbps", 3_125_000), ("1.2GB/s", 1.2e9), ("800MB/s", 8e8),
    ("10240Kibit/s", 1_310_720), ("50000B/s", 50_000), ("64KiB/s", 65_536), ("500 kB/s", 500_000),
    ("8bit/s", 1),
  ])
  func ratesReadAsBytesPerSecond(text: String, bytes: Double) {
    #expect(Bandwidth.bytesPerSecond(text) == bytes, "\(text)")
  }

  @Test(arguments: ["25M/s", "25Mb/s", "-1MB/s", "0B/s", "fast", "MB/s", "1.2GB", "nanB/s", "infGB/s", "5xbit/s"])
  func ambiguousOrEmptyRatesAreRefused(text: String) {
    #expect(Bandwidth.bytesPerSecond(text) == nil, "\(text)")
  }

  @Test(arguments: [1.0, 50_000, 180_000, 188_743, 1_012_500, 3_125_000, 1_310_720, 5e8, 1.2e9, 3.2e9, 0.5, 123.456])
  func printedRatesReadBackExactly(bytes: Double) {
    let text = Bandwidth.format(bytes)
    #expect(Bandwidth.bytesPerSecond(text) == bytes, "\(bytes) printed as \(text)")
  }

  @Test func ratesPrintInTheLargestDecimalUnit() {
    #expect(Bandwidth.format(5e8) == "500MB/s")
    #expect(Bandwidth.format(1.2e9) == "1.2GB/s")
    #expect(Bandwidth.format(50_000) == "50kB/s")
    #expect(Bandwidth.format(999) == "999B/s")
    #expect(
      Bandwidth.format(130_700_000) == "130.7MB/s" && Bandwidth.format(Bandwidth.rounded(130_712_345)) == "130.7MB/s")
  }
}
