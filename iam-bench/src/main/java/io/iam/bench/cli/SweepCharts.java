package io.iam.bench.cli;

import io.iam.bench.util.Charts;
import io.iam.core.sim.SeriesPoint;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Draws a sweep's charts (after the bounded-depth paper's Fig. 2 top row and Fig. 3) as PNG. */
final class SweepCharts {

  private static final int CELL_WIDTH = 720;
  private static final int CELL_HEIGHT = 500;
  private static final int GRID_ROWS = 2;
  private static final int GRID_COLS = 4;
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 700;

  private SweepCharts() {}

  /**
   * Fig. 2 (top row): one chart per k of write amplification against flushes up to {@code
   * horizon}, one line per bounded policy and the reference policies dashed; the last cell shows
   * write amplification at {@code horizon} against k.
   */
  static Path waVsFlushes(Path file, List<SweepRunner.Outcome> outcomes, long horizon, String stream)
      throws IOException {
    List<XYChart> charts = new ArrayList<>();
    // Long horizons count flushes in thousands, so that tick labels stay short.
    double xUnit = horizon >= 10_000 ? 1000 : 1;
    String xTitle = xUnit == 1 ? "flushes" : "flushes (thousands)";
    for (int k : SweepPlan.KS) {
      XYChart chart = chart(CELL_WIDTH, CELL_HEIGHT,
          String.format(Locale.ROOT, "k = %d: write amplification, first %,d flushes", k, horizon),
          xTitle, "write amplification (log)");
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisMin(1.0);
      chart.getStyler().setXAxisMin(0.0);
      chart.getStyler().setXAxisMax(horizon / xUnit);
      chart.getStyler().setxAxisTickLabelsFormattingFunction(sparseLabels(horizon / xUnit));
      chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
      for (SweepRunner.Outcome o : outcomes) {
        if (o.run().k() == null || o.run().k() == k) {
          curve(chart, o, horizon, xUnit);
        }
      }
      charts.add(chart);
    }
    XYChart byK = chart(CELL_WIDTH, CELL_HEIGHT,
        String.format(Locale.ROOT, "write amplification at %,d flushes vs k (%s)", horizon, stream),
        "k (max components)", "write amplification (log)");
    byK.getStyler().setYAxisLogarithmic(true);
    byK.getStyler().setYAxisMin(1.0);
    byK.getStyler().setLegendPosition(LegendPosition.OutsideE);
    for (String policy : SweepPlan.BOUNDED) {
      List<Integer> ks = new ArrayList<>();
      List<Double> was = new ArrayList<>();
      for (SweepRunner.Outcome o : outcomes) {
        if (o.run().policy().equals(policy) && o.run().k() != null) {
          ks.add(o.run().k());
          was.add(o.result().at(horizon).writeAmplification());
        }
      }
      XYSeries s = byK.addSeries(policy, ks, was);
      style(s, policy, false);
      s.setMarker(SeriesMarkers.CIRCLE);
    }
    charts.add(byK);
    BitmapEncoder.saveBitmap(charts, GRID_ROWS, GRID_COLS, file.toString(), BitmapFormat.PNG);
    return file;
  }

  /**
   * Fig. 3: for each bounded policy, one point per k &ge; 4 at (write amplification, average
   * component count) after {@code horizon} flushes, labelled with k.
   */
  static Path waVsComponents(Path file, List<SweepRunner.Outcome> outcomes, long horizon, String stream)
      throws IOException {
    XYChart chart = chart(WIDTH, HEIGHT,
        String.format(Locale.ROOT,
            "Average components vs write amplification after %,d flushes (%s; points are k = 4..10)",
            horizon, stream),
        String.format(Locale.ROOT, "write amplification at %,d flushes (log)", horizon),
        String.format(Locale.ROOT, "average components over the first %,d flushes", horizon));
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
    for (String policy : SweepPlan.BOUNDED) {
      List<Double> was = new ArrayList<>();
      List<Double> components = new ArrayList<>();
      for (SweepRunner.Outcome o : outcomes) {
        Integer k = o.run().k();
        if (o.run().policy().equals(policy) && k != null && k >= 4) {
          SeriesPoint p = o.result().at(horizon);
          was.add(p.writeAmplification());
          components.add(p.averageComponents());
          AnnotationText label = new AnnotationText(
              "k=" + k, p.writeAmplification(), p.averageComponents() + 0.12, false);
          chart.addAnnotation(label);
        }
      }
      XYSeries s = chart.addSeries(policy, was, components);
      style(s, policy, false);
      s.setMarker(SeriesMarkers.CIRCLE);
    }
    chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    chart.getStyler().setAnnotationTextFontColor(Color.DARK_GRAY);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
    return file;
  }

  private static void curve(XYChart chart, SweepRunner.Outcome o, long horizon, double xUnit) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (SeriesPoint p : o.result().series()) {
      if (p.flushes() > horizon) {
        break;
      }
      xs.add(p.flushes() / xUnit);
      ys.add(p.writeAmplification());
    }
    boolean reference = o.run().k() == null;
    XYSeries s = chart.addSeries(reference ? o.run().policy() + " (ref.)" : o.run().policy(), xs, ys);
    style(s, o.run().policy(), reference);
    s.setMarker(SeriesMarkers.NONE);
  }

  /**
   * XChart 3.8 may put a tick at every unit of a short axis and ignores the spacing hint for it;
   * label only every {@code step}-th value so that at most about six labels show.
   */
  private static Function<Double, String> sparseLabels(double span) {
    double step = 1;
    double[] factors = {1, 2, 2.5, 5};
    outer:
    for (double decade = Math.pow(10, Math.floor(Math.log10(span)) - 1); ; decade *= 10) {
      for (double f : factors) {
        if (span / (f * decade) <= 6) {
          step = f * decade;
          break outer;
        }
      }
    }
    double labelStep = step;
    DecimalFormat format = new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ROOT));
    return x -> {
      double q = x / labelStep;
      return Math.abs(q - Math.rint(q)) < 1e-9 ? format.format(x) : "";
    };
  }

  private static void style(XYSeries s, String policy, boolean reference) {
    s.setLineColor(Charts.policyColor(policy));
    s.setMarkerColor(Charts.policyColor(policy));
    s.setLineWidth(reference ? 1.5f : 2.0f);
    if (reference) {
      s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
          new float[] {6f, 4f}, 0f));
    } else {
      s.setLineStyle(SeriesLines.SOLID);
    }
  }

  private static XYChart chart(int width, int height, String title, String xTitle, String yTitle) {
    XYChart chart = new XYChartBuilder()
        .width(width)
        .height(height)
        .title(title)
        .xAxisTitle(xTitle)
        .yAxisTitle(yTitle)
        .build();
    Charts.style(chart.getStyler());
    return chart;
  }
}
