package io.iam.bench.util;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler.LegendPosition;

/** The look every PNG chart of the subcommands shares: fonts, white backgrounds, light grid, a palette. */
public final class Charts {

  /** Colours for series without a colour of their own (tab10), in order; they repeat after ten. */
  private static final List<Color> PALETTE = List.of(
      new Color(0x1F, 0x77, 0xB4), new Color(0xFF, 0x7F, 0x0E), new Color(0x2C, 0xA0, 0x2C),
      new Color(0xD6, 0x27, 0x28), new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B),
      new Color(0xE3, 0x77, 0xC2), new Color(0x7F, 0x7F, 0x7F), new Color(0xBC, 0xBD, 0x22),
      new Color(0x17, 0xBE, 0xCF));

  /** One colour per merge policy, the same in every chart that compares policies. */
  private static final Map<String, Color> POLICY_COLORS = Map.of(
      "constant", new Color(0xD6, 0x27, 0x28),
      "bigtable", new Color(0xFF, 0x7F, 0x0E),
      "exploring", new Color(0x2C, 0xA0, 0x2C),
      "minlatency", new Color(0x1F, 0x77, 0xB4),
      "binomial", new Color(0x94, 0x67, 0xBD),
      "iam-stack", new Color(0xE3, 0x77, 0xC2),
      "prefix", new Color(0x7F, 0x7F, 0x7F),
      "concurrent", new Color(0x17, 0xBE, 0xCF),
      "size-tiered", new Color(0x8C, 0x56, 0x4B));

  private Charts() {}

  /** The colour of a merge policy's series; black for a policy without one. */
  public static Color policyColor(String policy) {
    return POLICY_COLORS.getOrDefault(policy, Color.BLACK);
  }

  /** Applies the shared look to a chart's styler; the legend goes inside, top left. */
  public static <S extends AxesChartStyler> S style(S st) {
    st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    st.setLegendPosition(LegendPosition.InsideNW);
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
    st.setPlotBorderColor(Color.GRAY);
    st.setLegendBorderColor(Color.LIGHT_GRAY);
    st.setXAxisDecimalPattern("#,##0.#");
    st.setYAxisDecimalPattern("#,##0.#");
    return st;
  }

  /**
   * A bar chart of the given size and titles with the shared look, the legend at {@code legend}, y
   * labels to two decimals and bars filling 80 % of their category.
   */
  public static CategoryChart bars(int width, int height, String title, String xTitle, String yTitle,
      LegendPosition legend) {
    CategoryChart chart = new CategoryChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    CategoryStyler st = style(chart.getStyler());
    st.setLegendPosition(legend);
    st.setYAxisDecimalPattern("#,##0.##");
    st.setAvailableSpaceFill(0.8);
    return chart;
  }

  /**
   * Write amplification as one bar per store, stacked by level (L0 at the bottom, one colour per
   * level): {@code levels.get(i)} holds store i's write amplification per level, level 0 first.
   */
  public static CategoryChart writeAmplificationByLevel(int width, int height, String title, String xTitle,
      List<String> stores, List<List<Double>> levels) {
    CategoryChart chart = bars(width, height, title, xTitle, "write amplification", LegendPosition.OutsideE);
    chart.getStyler().setStacked(true);
    int depth = Math.max(1, levels.stream().mapToInt(List::size).max().orElse(0));
    for (int l = 0; l < depth; l++) {
      List<Double> ys = new java.util.ArrayList<>();
      for (List<Double> store : levels) {
        double v = l < store.size() ? store.get(l) : 0;
        ys.add(Double.isFinite(v) ? v : 0);
      }
      chart.addSeries("L" + l, stores, ys).setFillColor(color(l));
    }
    return chart;
  }

  /** The {@code i}-th colour of the palette (0 first), for series that keep their place across charts. */
  public static Color color(int i) {
    return PALETTE.get(Math.floorMod(i, PALETTE.size()));
  }

  /**
   * Writes {@code charts} as one PNG, left to right and top to bottom in rows of {@code columns}
   * cells the size of the largest chart; cells past the last chart stay white (XChart's own grid
   * wants exactly rows × columns charts).
   */
  public static Path saveGrid(Path file, List<? extends Chart<?, ?>> charts, int columns) throws IOException {
    if (charts.isEmpty() || columns < 1) {
      throw new IllegalArgumentException("a grid needs at least one chart and one column");
    }
    int cols = Math.min(columns, charts.size());
    int rows = (charts.size() + cols - 1) / cols;
    int cellWidth = charts.stream().mapToInt(Chart::getWidth).max().orElseThrow();
    int cellHeight = charts.stream().mapToInt(Chart::getHeight).max().orElseThrow();
    BufferedImage grid = new BufferedImage(cols * cellWidth, rows * cellHeight, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = grid.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, grid.getWidth(), grid.getHeight());
      for (int i = 0; i < charts.size(); i++) {
        g.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)), i % cols * cellWidth, i / cols * cellHeight, null);
      }
    } finally {
      g.dispose();
    }
    if (!ImageIO.write(grid, "png", file.toFile())) {
      throw new IOException("no PNG writer for " + file);
    }
    return file;
  }
}
