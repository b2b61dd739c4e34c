package io.iam.bench.cli;

import io.iam.bench.util.Sizes;
import io.iam.core.engine.TreeKind;
import io.iam.core.manifest.NodeMeta;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * A node tree drawn with Java2D: one row per level, L1 at the top. A node is a box over its key
 * range; its sequences are stacked bands of one height across the picture (oldest at the bottom,
 * shades alternating), so a node's stack shows how many it holds; an emptied node is a dashed
 * outline. The x axis is the key space by rank: each distinct boundary key of any level is one
 * step. The right margin counts nodes, sequences and bytes per level.
 */
record TreePicture(String title, List<Level> levels) {

  /** What a flush into a level does to its nodes. */
  enum Role {
    APPENDING("appending", new Color(0x3B6FB6), new Color(0x9DBFE8)),
    MIXED("mixed", new Color(0xD9772B), new Color(0xF4C08F)),
    MERGING("merging", new Color(0x3C8D50), new Color(0xA3D6AE));

    final String word;
    final Color dark;
    final Color light;

    Role(String word, Color dark, Color light) {
      this.word = word;
      this.dark = dark;
      this.light = light;
    }

    /**
     * The role of {@code level} in a tree whose mixed level is {@code m}: lsa appends and lsm-merge
     * merges everywhere; iam appends above m, is mixed at m and merges below.
     */
    static Role of(TreeKind tree, int level, int m) {
      return switch (tree) {
        case LSA -> APPENDING;
        case IAM -> level < m ? APPENDING : level == m ? MIXED : MERGING;
        default -> MERGING;
      };
    }
  }

  /** A level: its number, its role, k if it is the mixed level, its nodes sorted by key. */
  record Level(int number, Role role, int k, List<NodeMeta> nodes) {

    /** {@code (appending)}, {@code (mixed, k=3)}, {@code (merging)}. */
    String roleLabel() {
      return "(" + role.word + (role == Role.MIXED ? ", k=" + k : "") + ")";
    }

    int sequences() {
      return nodes.stream().mapToInt(NodeMeta::sequences).sum();
    }

    long bytes() {
      return nodes.stream().mapToLong(NodeMeta::bytes).sum();
    }
  }

  private static final Color INK = new Color(0x222222);
  private static final Color GREY = new Color(0x777777);
  private static final Color RULE = new Color(0xDDDDDD);
  private static final Color EMPTY = new Color(0x999999);
  static final int LEFT = 150;
  static final int RIGHT = 190;
  static final int TOP = 56;
  static final int BOTTOM = 44;
  static final int ROW_GAP = 18;

  BufferedImage draw(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(INK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
      centred(g, title, width / 2, 32);
      drawLevels(g, width, height);
      drawLegend(g, width, height);
    } finally {
      g.dispose();
    }
    return image;
  }

  private void drawLevels(Graphics2D g, int width, int height) {
    TreeMap<byte[], Integer> ranks = ranks();
    int slots = Math.max(1, ranks.size());
    int plotLeft = LEFT;
    int plotWidth = width - LEFT - RIGHT;
    int rows = Math.max(1, levels.size());
    double rowHeight = (height - TOP - BOTTOM - ROW_GAP * (rows - 1)) / (double) rows;
    int maxSequences = Math.max(1, levels.stream().flatMap(l -> l.nodes().stream())
        .mapToInt(NodeMeta::sequences).max().orElse(1));
    double band = rowHeight / maxSequences;
    for (int i = 0; i < levels.size(); i++) {
      Level level = levels.get(i);
      int top = (int) Math.round(TOP + i * (rowHeight + ROW_GAP));
      int bottom = (int) Math.round(TOP + i * (rowHeight + ROW_GAP) + rowHeight);
      g.setColor(RULE);
      g.drawLine(plotLeft, bottom, plotLeft + plotWidth, bottom);
      for (NodeMeta node : level.nodes()) {
        double x0 = plotLeft + plotWidth * (double) ranks.get(node.lo()) / slots;
        double x1 = plotLeft + plotWidth * (double) (ranks.get(node.hi()) + 1) / slots;
        drawNode(g, level.role(), node, x0, x1, top, bottom, band);
      }
      drawLabels(g, level, width, top, bottom);
    }
  }

  /** Each distinct node boundary of every level mapped to its rank in key order. */
  private TreeMap<byte[], Integer> ranks() {
    TreeMap<byte[], Integer> ranks = new TreeMap<>(Arrays::compareUnsigned);
    for (Level level : levels) {
      for (NodeMeta node : level.nodes()) {
        ranks.put(node.lo(), 0);
        ranks.put(node.hi(), 0);
      }
    }
    int rank = 0;
    for (var e : ranks.entrySet()) {
      e.setValue(rank++);
    }
    return ranks;
  }

  private static void drawNode(Graphics2D g, Role role, NodeMeta node, double x0, double x1, int top, int bottom,
      double band) {
    double inset = Math.min(1.5, (x1 - x0) * 0.15);
    int left = (int) Math.round(x0 + inset);
    int right = (int) Math.round(x1 - inset);
    int w = Math.max(1, right - left);
    int sequences = node.sequences();
    if (node.file() == null) {
      Stroke old = g.getStroke();
      g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f));
      g.setColor(EMPTY);
      g.drawRect(left, top, w, bottom - top);
      g.setStroke(old);
      return;
    }
    for (int s = 0; s < sequences; s++) {
      int y1 = (int) Math.round(bottom - s * band);
      int y0 = (int) Math.round(bottom - (s + 1) * band);
      g.setColor(s % 2 == 0 ? role.dark : role.light);
      g.fillRect(left, y0, w, y1 - y0);
    }
    g.setColor(role.dark);
    g.drawRect(left, top, w, bottom - top);
  }

  private static void drawLabels(Graphics2D g, Level level, int width, int top, int bottom) {
    int middle = (top + bottom) / 2;
    g.setColor(INK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
    g.drawString("L" + level.number(), 16, middle - 2);
    g.setColor(level.role().dark);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
    g.drawString(level.roleLabel(), 16, middle + 18);

    g.setColor(INK);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
    int x = width - RIGHT + 14;
    int n = level.nodes().size();
    int seqs = level.sequences();
    g.drawString(String.format(Locale.ROOT, "%d node%s", n, n == 1 ? "" : "s"), x, middle - 12);
    g.drawString(String.format(Locale.ROOT, "%d sequence%s", seqs, seqs == 1 ? "" : "s"), x, middle + 6);
    g.setColor(GREY);
    g.drawString(Sizes.human(level.bytes()), x, middle + 24);
  }

  private void drawLegend(Graphics2D g, int width, int height) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    int y = height - 14;
    int x = LEFT;
    for (Role role : levels.stream().map(Level::role).distinct().sorted().toList()) {
      g.setColor(role.dark);
      g.fillRect(x, y - 11, 12, 6);
      g.setColor(role.light);
      g.fillRect(x, y - 5, 12, 6);
      g.setColor(INK);
      g.drawString(role.word, x + 17, y);
      x += 17 + fm.stringWidth(role.word) + 22;
    }
    Stroke old = g.getStroke();
    g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {3f, 2f}, 0f));
    g.setColor(EMPTY);
    g.drawRect(x, y - 11, 12, 12);
    g.setStroke(old);
    g.setColor(INK);
    String empty = "emptied node (no file)";
    g.drawString(empty, x + 17, y);
    x += 17 + fm.stringWidth(empty) + 22;
    g.setColor(GREY);
    String note = "one band per sequence, oldest at the bottom  ·  x: key space, node boundaries by rank";
    g.drawString(note, Math.max(x, width - RIGHT - fm.stringWidth(note)), y);
  }

  private static void centred(Graphics2D g, String text, int x, int y) {
    g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
  }
}
