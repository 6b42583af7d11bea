import Foundation
import Testing

@testable import Policies

/// `BeladySize.Candidate` orders samples exactly as libcachesim's log(size) + log(distance)
/// does, on products far apart, close together and equal.
@Suite struct BeladySizeScoreTests {
  /// The package's comparison, written out.
  static func logsOrder(_ a: BeladySize.Candidate, _ b: BeladySize.Candidate) -> Bool {
    log(a.size) + log(a.distance) < log(b.size) + log(b.distance)
  }

  @Test func productsOrderAsTheLogarithmsDo() {
    var random = SystemRandomNumberGenerator()
    var nearTies = 0
    for round in 0..<200_000 {
      let size = Double(Int64.random(in: 1...(1 << 40), using: &random))
      let distance =
        round % 7 == 0 ? Double(Int64.max) : Double(Int64.random(in: 1...(1 << 34), using: &random))
      let a = BeladySize.Candidate(size: size, distance: distance)
      // Every third pair multiplies to (nearly) the same product in other factors.
      let b: BeladySize.Candidate
      if round % 3 == 0 {
        let factor = Double(Int64.random(in: 1...64, using: &random))
        let nudge = Double(Int64.random(in: -1...1, using: &random))
        b = BeladySize.Candidate(size: (size * factor).rounded(), distance: (distance / factor).rounded() + nudge)
        nearTies += 1
      } else {
        b = BeladySize.Candidate(
          size: Double(Int64.random(in: 1...(1 << 40), using: &random)),
          distance: Double(Int64.random(in: 1...(1 << 34), using: &random)))
      }
      guard a.isScored, b.isScored else { continue }
      #expect(a.scoresBelow(b) == Self.logsOrder(a, b), "\(a) \(b)")
      #expect(b.scoresBelow(a) == Self.logsOrder(b, a), "\(b) \(a)")
    }
    #expect(nearTies > 60_000)
  }

  @Test func equalScoresKeepTheFirst() {
    let a = BeladySize.Candidate(size: 6, distance: 10)
    let b = BeladySize.Candidate(size: 10, distance: 6)
    #expect(!a.scoresBelow(b) || Self.logsOrder(a, b))
    #expect(!a.scoresBelow(a))
  }

  @Test func onlyWholeFactorsOfAtLeastOneAreScored() {
    #expect(!BeladySize.Candidate(size: 0, distance: 5).isScored)
    #expect(!BeladySize.Candidate(size: 5, distance: 0).isScored)
    #expect(!BeladySize.Candidate(size: 5, distance: -3).isScored)
    #expect(BeladySize.Candidate(size: 1, distance: 1).isScored)
  }
}
