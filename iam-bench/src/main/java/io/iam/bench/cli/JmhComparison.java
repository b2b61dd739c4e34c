package io.iam.bench.cli;

import io.iam.bench.cli.JmhResults.Key;
import io.iam.bench.cli.JmhResults.Score;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares a JMH run with a baseline, benchmark by benchmark and parameter combination by
 * combination. A score is a regression when it is worse than the baseline by more than the
 * threshold: below {@code baseline × (1 − threshold)} for throughput, above {@code baseline × (1 +
 * threshold)} for the time modes (avgt, sample, ss). Better by as much is an improvement. A
 * combination on one side only is listed, never a regression.
 */
final class JmhComparison {

  enum Verdict {
    SAME("same"),
    IMPROVED("improved"),
    REGRESSION("REGRESSION"),
    ONLY_BASELINE("not in run"),
    ONLY_RUN("not in baseline");

    final String text;

    Verdict(String text) {
      this.text = text;
    }
  }

  /**
   * One row. {@code baseline} or {@code run} is null when the combination is on one side only;
   * {@code ratio} is run ÷ baseline (NaN then).
   */
  record Row(Key key, Score baseline, Score run, double ratio, Verdict verdict) {}

  private JmhComparison() {}

  /**
   * The rows in the baseline's order, then those only in the run.
   *
   * @param threshold the tolerated relative change, e.g. 0.10 for 10%
   * @throws JmhResults.BadResultsException when one combination has different units on each side
   */
  static List<Row> compare(Map<Key, Score> baseline, Map<Key, Score> run, double threshold)
      throws JmhResults.BadResultsException {
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<Key, Score> e : baseline.entrySet()) {
      Key key = e.getKey();
      Score b = e.getValue();
      Score r = run.get(key);
      if (r == null) {
        rows.add(new Row(key, b, null, Double.NaN, Verdict.ONLY_BASELINE));
        continue;
      }
      if (!b.unit().equals(r.unit())) {
        throw new JmhResults.BadResultsException(key.benchmark() + " " + key.paramsText() + ": the baseline is in "
            + b.unit() + " and the run in " + r.unit() + "; rerun with the same -tu");
      }
      double ratio = r.score() / b.score();
      rows.add(new Row(key, b, r, ratio, verdict(key.higherIsBetter(), ratio, threshold)));
    }
    for (Map.Entry<Key, Score> e : run.entrySet()) {
      if (!baseline.containsKey(e.getKey())) {
        rows.add(new Row(e.getKey(), null, e.getValue(), Double.NaN, Verdict.ONLY_RUN));
      }
    }
    return rows;
  }

  /** Whether run ÷ baseline = {@code ratio} is worse, better or the same, given the threshold. */
  static Verdict verdict(boolean higherIsBetter, double ratio, double threshold) {
    double better = higherIsBetter ? ratio - 1 : 1 - ratio;
    if (better < -threshold) {
      return Verdict.REGRESSION;
    }
    return better > threshold ? Verdict.IMPROVED : Verdict.SAME;
  }

  static long regressions(List<Row> rows) {
    return rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).count();
  }
}
