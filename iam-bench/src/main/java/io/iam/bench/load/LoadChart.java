package io.iam.bench.load;

import io.iam.bench.util.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;

/** {@code iam load --chart}: each store's write amplification over the load, stacked by level, as a PNG. */
final class LoadChart {

  private LoadChart() {}

  /** Draws {@code runs} (one bar each, named by store) into {@code file}; returns the file. */
  static Path write(Path file, List<RunResult> runs) throws IOException {
    List<String> stores = new ArrayList<>();
    List<List<Double>> levels = new ArrayList<>();
    for (RunResult r : runs) {
      stores.add(r.tree());
      List<Double> byLevel = new ArrayList<>();
      for (LevelMetrics m : r.lastMetrics().levels()) {
        while (byLevel.size() <= m.level()) {
          byLevel.add(0.0);
        }
        byLevel.set(m.level(), byLevel.get(m.level()) + m.writeAmplification());
      }
      levels.add(byLevel);
    }
    var chart = Charts.writeAmplificationByLevel(160 + 130 * runs.size(), 480, "Write amplification by level",
        "store", stores, levels);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
    return file.toString().endsWith(".png") ? file : Path.of(file + ".png");
  }
}
