package io.iam.bench.host;

import io.iam.bench.util.Charts;
import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of a host sweep, after the bounded-depth paper's Fig. 2: write amplification against
 * k and average components against k. Each policy has its colour; the host's runs are solid lines
 * with markers, the simulator's runs of the same flushes dashed lines on the same axes, and each
 * baseline (no k) a dotted horizontal line at what the host measured.
 */
public final class HostSweepCharts {

  private static final int WIDTH = 1100;
  private static final int HEIGHT = 700;
  private static final BasicStroke DASHED =
      new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 4f}, 0f);
  private static final BasicStroke DOTTED =
      new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {2f, 4f}, 0f);

  private HostSweepCharts() {}

  /**
   * Writes {@code <host>-sweep-wa.png} and {@code <host>-sweep-components.png} into {@code dir}.
   *
   * @return the two files
   */
  public static List<Path> draw(Path dir, String host, List<HostSweepRow> points, String subtitle) throws IOException {
    Path wa = dir.resolve(host + "-sweep-wa.png");
    Path components = dir.resolve(host + "-sweep-components.png");
    XYChart waChart = chart(host, points, "write amplification", subtitle, HostSweepRow::writeAmplification,
        HostSweepRow::simulatedWriteAmplification);
    // Constant at k = 3 writes a hundred times more than the others; a log axis keeps both readable.
    waChart.getStyler().setYAxisLogarithmic(true);
    waChart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    waChart.setYAxisTitle("write amplification (log)");
    save(waChart, wa);
    save(chart(host, points, "average components", subtitle, HostSweepRow::averageComponents,
        HostSweepRow::simulatedAverageComponents), components);
    return List.of(wa, components);
  }

  private static XYChart chart(String host, List<HostSweepRow> points, String metric, String subtitle,
      ToDoubleFunction<HostSweepRow> measured, ToDoubleFunction<HostSweepRow> simulated) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title(String.format(Locale.ROOT, "%s against k: %s (solid) and the simulator (dashed), %s", metric, host, subtitle))
        .xAxisTitle("k (max components)").yAxisTitle(metric).build();
    Charts.style(chart.getStyler());
    chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
    chart.getStyler().setxAxisTickLabelsFormattingFunction(x -> x == Math.rint(x) ? Long.toString(Math.round(x)) : "");
    Set<String> policies = new LinkedHashSet<>();
    List<Integer> allKs = new ArrayList<>();
    for (HostSweepRow p : points) {
      if (p.k() != null) {
        policies.add(p.policy());
        allKs.add(p.k());
      }
    }
    for (String policy : policies) {
      List<Integer> ks = new ArrayList<>();
      List<Double> real = new ArrayList<>();
      List<Double> sim = new ArrayList<>();
      for (HostSweepRow p : points) {
        if (policy.equals(p.policy()) && p.k() != null) {
          ks.add(p.k());
          real.add(measured.applyAsDouble(p));
          sim.add(simulated.applyAsDouble(p));
        }
      }
      XYSeries r = chart.addSeries(policy + " (" + host + ")", ks, real);
      r.setLineColor(Charts.policyColor(policy));
      r.setMarkerColor(Charts.policyColor(policy));
      r.setMarker(SeriesMarkers.CIRCLE);
      r.setLineStyle(SeriesLines.SOLID);
      XYSeries s = chart.addSeries(policy + " (simulated)", ks, sim);
      s.setLineColor(Charts.policyColor(policy));
      s.setMarker(SeriesMarkers.NONE);
      s.setLineStyle(DASHED);
    }
    int minK = allKs.stream().mapToInt(Integer::intValue).min().orElse(1);
    int maxK = allKs.stream().mapToInt(Integer::intValue).max().orElse(minK + 1);
    for (HostSweepRow p : points) {
      if (p.k() == null) {
        double y = measured.applyAsDouble(p);
        XYSeries b = chart.addSeries(p.policy() + " (" + host + ", defaults)",
            List.of(minK, Math.max(maxK, minK + 1)), List.of(y, y));
        b.setLineColor(Charts.policyColor(p.policy()));
        b.setMarker(SeriesMarkers.NONE);
        b.setLineStyle(DOTTED);
      }
    }
    return chart;
  }

  private static void save(XYChart chart, Path file) throws IOException {
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
  }
}
