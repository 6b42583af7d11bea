/// Holm's step-down adjustment of p-values for multiple comparisons: it controls the chance
/// of any false rejection among the family at the nominal level. O(m log m).
public enum HolmAdjustment {
  /// Adjusted p-values in the order given: the i-th smallest p becomes
  /// max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎).
  public static func adjust(_ pValues: [Double]) -> [Double] {
    let m = pValues.count
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var adjusted = [Double](repeating: 1, count: m)
    var running = 0.0
    for (position, index) in order.enumerated() {
      running = max(running, min(1, Double(m - position) * pValues[index]))
      adjusted[index] = running
    }
    return adjusted
  }
}
