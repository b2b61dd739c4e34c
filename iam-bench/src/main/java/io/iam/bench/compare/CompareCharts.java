package io.iam.bench.compare;

import io.iam.bench.util.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The charts of a comparison as PNG: throughput normalized to the baseline (the IAM paper's Fig.
 * 6-8), write amplification stacked by level (its Table 4), latency percentiles, disk space. Each
 * engine keeps its colour in every chart. A cell without figures (every run failed) draws as 0.
 */
final class CompareCharts {

  static final String THROUGHPUT = "throughput.png";
  static final String WRITE_AMPLIFICATION = "write-amplification.png";
  static final String LATENCY = "latency.png";
  static final String DISK = "disk.png";

  private static final int WIDTH = 1000;
  private static final int HEIGHT = 560;
  private static final int CELL_WIDTH = 460;
  private static final int CELL_HEIGHT = 340;
  private static final int GRID_COLUMNS = 4;
  private static final double MIB = 1024.0 * 1024.0;

  private CompareCharts() {}

  /** Writes the four charts into {@code dir}; returns their files. */
  static List<Path> write(Path dir, CompareSummary s) throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(save(dir.resolve(THROUGHPUT), byWorkload(s,
        "Throughput normalized to " + s.baseline() + " (higher is better)",
        "throughput / " + s.baseline(), CompareSummary.Cell::normalized)));
    files.add(save(dir.resolve(DISK), byWorkload(s, "Disk space after each workload (live table files)",
        "MiB", c -> c.diskBytes() / MIB)));
    files.add(saveGrid(dir.resolve(WRITE_AMPLIFICATION), writeAmplification(s)));
    files.add(saveGrid(dir.resolve(LATENCY), latency(s)));
    return files;
  }

  /** One group of bars per workload, one bar per engine. */
  private static CategoryChart byWorkload(CompareSummary s, String title, String yTitle,
      ToDoubleFunction<CompareSummary.Cell> figure) {
    CategoryChart chart = chart(WIDTH, HEIGHT, title, "workload", yTitle);
    for (int e = 0; e < s.engines().size(); e++) {
      String engine = s.engines().get(e);
      List<Double> ys = new ArrayList<>();
      for (String w : s.workloads()) {
        ys.add(value(figure.applyAsDouble(s.cell(w, engine))));
      }
      engineSeries(chart, engine, e, s.workloads(), ys);
    }
    return chart;
  }

  /** One chart per workload: a bar per engine, stacked by level (L0 at the bottom). */
  private static List<CategoryChart> writeAmplification(CompareSummary s) {
    List<CategoryChart> charts = new ArrayList<>();
    for (String w : s.workloads()) {
      List<List<Double>> levels = new ArrayList<>();
      for (String e : s.engines()) {
        levels.add(s.cell(w, e).levels());
      }
      charts.add(Charts.writeAmplificationByLevel(CELL_WIDTH, CELL_HEIGHT, "Write amplification, workload " + w,
          "engine", s.engines(), levels));
    }
    return charts;
  }

  /** One chart per workload and operation type: p50 … p99.9 on a log axis, a bar per engine. */
  private static List<CategoryChart> latency(CompareSummary s) {
    List<CategoryChart> charts = new ArrayList<>();
    for (String w : s.workloads()) {
      for (String op : s.operations(w)) {
        CategoryChart chart = chart(CELL_WIDTH, CELL_HEIGHT, "Workload " + w + ": " + op + " latency", "percentile",
            "microseconds (log)");
        chart.getStyler().setYAxisLogarithmic(true);
        double floor = Double.MAX_VALUE;
        for (int e = 0; e < s.engines().size(); e++) {
          String engine = s.engines().get(e);
          var ops = s.cell(w, engine).latency().get(op);
          List<Double> ys = new ArrayList<>();
          for (String p : CompareSummary.PERCENTILES) {
            // A log axis cannot show 0: a missing figure draws at the axis' floor.
            ys.add(ops == null ? 0.01 : Math.max(0.01, value(ops.get(p))));
          }
          engineSeries(chart, engine, e, CompareSummary.PERCENTILE_LABELS, ys);
          floor = Math.min(floor, ys.stream().mapToDouble(Double::doubleValue).min().orElse(1));
        }
        // Bars grow from the axis' minimum, which XChart takes as 0 unless told: a power of ten below.
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(floor))));
        charts.add(chart);
      }
    }
    return charts;
  }

  private static void engineSeries(CategoryChart chart, String engine, int index, List<String> xs, List<Double> ys) {
    CategorySeries series = chart.addSeries(engine, xs, ys);
    series.setFillColor(Charts.color(index));
  }

  private static double value(double v) {
    return Double.isFinite(v) ? v : 0;
  }

  private static CategoryChart chart(int width, int height, String title, String xTitle, String yTitle) {
    return Charts.bars(width, height, title, xTitle, yTitle, LegendPosition.OutsideE);
  }

  private static Path save(Path file, CategoryChart chart) throws IOException {
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
    return file;
  }

  private static Path saveGrid(Path file, List<CategoryChart> charts) throws IOException {
    if (charts.isEmpty()) {
      CategoryChart none = chart(CELL_WIDTH, CELL_HEIGHT, "No run succeeded", "", "");
      none.addSeries("none", List.of("-"), List.of(0.0));
      charts = List.of(none);
    }
    return Charts.saveGrid(file, charts, GRID_COLUMNS);
  }
}
