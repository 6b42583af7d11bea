import CacheCore
import Engine
import Reports
import Testing

/// `calibrate`'s spread (how far single operations stray above their size's median) and its
/// two kinds of read, each fitted and written on its own.
@Suite struct LatencySpreadFitTests {
  /// `operation`s on `sizes`, `perSize` each, at `line(size)` times a factor whose p90 over
  /// median is `spread`: the factors 1 (half of them), 1 / 1.1 (a fifth) and `spread` (the rest).
  static func points(
    _ operation: LatencyCalibration.Operation, sizes: [Int64] = sizes, perSize: Int = 20, spread: Double,
    line: (Int64) -> Double = line
  ) -> [LatencyCalibration.Point] {
    sizes.flatMap { size in
      (0..<perSize).map { index in
        let factor = index % 10 < 5 ? 1 : index % 10 < 7 ? 1 / 1.1 : spread
        return LatencyCalibration.Point(
          operation: operation, size: size, micros: Int64((line(size) * factor).rounded()))
      }
    }
  }

  static let sizes: [Int64] = (0...6).map { 1024 << $0 }
  static func line(_ size: Int64) -> Double { 1_000 + Double(size) / 1e3 }

  @Test func theSpreadIsTheP90OverTheMedianOfEachSizesTimes() throws {
    let fit = try #require(LatencyCalibration(points: Self.points(.read, spread: 1.6), measuredCold: false).fits.first)
    #expect(fit.spread == 1.6 && abs(fit.fixed - 1_000) < 1)
    #expect(fit.cost.spread == 1.6 && fit.cost.description.hasSuffix("~1.6"), "\(fit.cost)")
  }

  @Test func readsAfterAWriteGetTheirOwnLineSpreadAndKey() throws {
    let points =
      Self.points(.read, spread: 1.3) + Self.points(.readAfterWrite, spread: 2) { 1.7 * Self.line($0) }
    let calibration = LatencyCalibration(points: points, measuredCold: false)
    let fits = Dictionary(uniqueKeysWithValues: calibration.fits.map { ($0.operation, $0) })
    let read = try #require(fits[.read])
    let after = try #require(fits[.readAfterWrite])
    #expect(read.spread == 1.3 && after.spread == 2)
    #expect(abs(read.fixed - 1_000) < 1 && abs(after.fixed - 1_700) < 1, "each line through its own reads")
    let model = calibration.spec.applied(to: LatencyModel())
    #expect(model.diskRead == read.cost && model.diskReadAfterWrite == after.cost)
  }

  @Test func fewPointsGiveNoSpreadAndOnlyTheDiskCostsCarryOne() throws {
    let few = Self.points(.read, sizes: Array(Self.sizes.prefix(3)), perSize: 5, spread: 2)
    #expect(try #require(LatencyCalibration(points: few, measuredCold: false).fits.first).spread == nil)
    let deletes = LatencyCalibration(points: Self.points(.delete, spread: 2), measuredCold: false)
    let fit = try #require(deletes.fits.first)
    #expect(fit.spread == 2 && fit.cost.spread == 1, "disk-delete takes no spread")
    #expect(deletes.spec.settings.map(\.key) == [.diskDelete], "the fit still sets its key")
  }
}
