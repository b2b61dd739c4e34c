package io.iam.bench.projections;

import io.iam.bench.load.IoCounters;
import io.iam.bench.util.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The charts of {@code iam projections} as PNG, after the Min-Max paper's figures: {@value #LOAD}
 * has the load time (Fig. 5), the bytes written and the merges (Fig. 4) per store, each bar stacked
 * by projection; {@value #QUERY_IO} has, per projection, the data blocks a query read for each Table
 * 4 query, a bar per store (Fig. 6). Each projection, and each store, keeps its colour. A counter a
 * store does not keep draws as 0.
 */
final class ProjectionsCharts {

  static final String LOAD = "load.png";
  static final String QUERY_IO = "query-io.png";

  private static final int WIDTH = 520;
  private static final int HEIGHT = 380;
  private static final double MIB = 1024.0 * 1024.0;

  private ProjectionsCharts() {}

  /** Writes both charts into {@code dir}; returns their files. */
  static List<Path> write(Path dir, ProjectionsResult r) throws IOException {
    List<CategoryChart> load = List.of(
        byStore(r, "Load time, puts + settle (Fig. 5)", "seconds", p -> p.totalNanos() / 1e9),
        byStore(r, "Bytes written, flushes + merges", "MiB", p -> p.metrics().bytesWritten() / MIB),
        byStore(r, "Merges (compactions) (Fig. 4)", "merges", p -> known(p.io().compactions())));
    List<CategoryChart> queries = new ArrayList<>();
    List<String> names = RangeQueries.TABLE_4.stream().map(RangeQueries.Table4::name).toList();
    for (Projection p : Projection.values()) {
      CategoryChart chart = chart("I/O per query, " + p.label() + " on " + p.attribute() + " (Fig. 6)", "query",
          "data blocks read per query");
      int s = 0;
      for (String store : r.stores().keySet()) {
        List<Double> ys = new ArrayList<>();
        for (QueryFigures q : figures(r, store, p).queries()) {
          ys.add(Double.isNaN(q.blocksPerQuery()) ? 0 : q.blocksPerQuery());
        }
        chart.addSeries(store, names, ys).setFillColor(Charts.color(s++));
      }
      queries.add(chart);
    }
    return List.of(Charts.saveGrid(dir.resolve(LOAD), load, load.size()),
        Charts.saveGrid(dir.resolve(QUERY_IO), queries, queries.size()));
  }

  /** A bar per store, stacked by projection. */
  private static CategoryChart byStore(ProjectionsResult r, String title, String yTitle,
      ToDoubleFunction<ProjectionFigures> figure) {
    CategoryChart chart = chart(title, "store", yTitle);
    chart.getStyler().setStacked(true);
    List<String> stores = new ArrayList<>(r.stores().keySet());
    for (Projection p : Projection.values()) {
      List<Double> ys = new ArrayList<>();
      for (String store : stores) {
        ys.add(figure.applyAsDouble(figures(r, store, p)));
      }
      chart.addSeries(p.label() + " " + p.attribute(), stores, ys).setFillColor(Charts.color(p.ordinal()));
    }
    return chart;
  }

  private static ProjectionFigures figures(ProjectionsResult r, String store, Projection p) {
    return r.stores().get(store).stream().filter(f -> f.projection() == p).findFirst().orElseThrow();
  }

  private static double known(long counter) {
    return counter == IoCounters.UNKNOWN ? 0 : counter;
  }

  private static CategoryChart chart(String title, String xTitle, String yTitle) {
    return Charts.bars(WIDTH, HEIGHT, title, xTitle, yTitle, LegendPosition.OutsideS);
  }
}
