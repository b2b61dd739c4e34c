package io.iam.bench.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * A report as a list of blocks (headings, paragraphs, code, tables, images), written once and
 * rendered as Markdown or as self-contained HTML, so that both files hold the same figures.
 */
final class ReportDoc {

  /** A block of the report. */
  interface Block {}

  record Heading(int level, String text) implements Block {}

  /** Plain text; {@code **…**} is bold and {@code `…`} spans are code. */
  record Paragraph(String text) implements Block {}

  record Code(String text) implements Block {}

  /**
   * A table; the columns flagged in {@code numeric} are right-aligned.
   */
  record Table(List<String> header, List<Boolean> numeric, List<List<String>> rows) implements Block {}

  record Image(String file, String alt) implements Block {}

  private final List<Block> blocks = new ArrayList<>();

  ReportDoc heading(int level, String text) {
    blocks.add(new Heading(level, text));
    return this;
  }

  ReportDoc paragraph(String text) {
    blocks.add(new Paragraph(text));
    return this;
  }

  ReportDoc code(String text) {
    blocks.add(new Code(text));
    return this;
  }

  ReportDoc table(Table table) {
    blocks.add(table);
    return this;
  }

  ReportDoc image(String file, String alt) {
    blocks.add(new Image(file, alt));
    return this;
  }

  List<Block> blocks() {
    return List.copyOf(blocks);
  }

  String markdown() {
    StringBuilder b = new StringBuilder();
    for (Block block : blocks) {
      if (block instanceof Heading h) {
        b.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
      } else if (block instanceof Paragraph p) {
        b.append(p.text()).append("\n\n");
      } else if (block instanceof Code c) {
        b.append("```\n").append(c.text()).append("\n```\n\n");
      } else if (block instanceof Table t) {
        b.append(row(t.header().stream().map(ReportDoc::cellMd).toList()));
        b.append(row(t.numeric().stream().map(n -> n ? "---:" : "---").toList()));
        for (List<String> r : t.rows()) {
          b.append(row(r.stream().map(ReportDoc::cellMd).toList()));
        }
        b.append('\n');
      } else if (block instanceof Image i) {
        b.append("![").append(i.alt()).append("](").append(i.file()).append(")\n\n");
      }
    }
    return b.toString();
  }

  String html(String title) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(escape(title)).append("</title>\n<style>\n")
        .append("body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\n")
        .append("table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 8px}\n")
        .append("th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\n")
        .append("code,pre{background:#f6f6f6}pre{padding:.6em;overflow-x:auto}img{max-width:100%}\n")
        .append("</style>\n</head>\n<body>\n");
    for (Block block : blocks) {
      if (block instanceof Heading h) {
        b.append("<h").append(h.level()).append('>').append(inline(h.text())).append("</h").append(h.level())
            .append(">\n");
      } else if (block instanceof Paragraph p) {
        b.append("<p>").append(inline(p.text())).append("</p>\n");
      } else if (block instanceof Code c) {
        b.append("<pre><code>").append(escape(c.text())).append("</code></pre>\n");
      } else if (block instanceof Table t) {
        b.append("<table>\n<tr>");
        for (String h : t.header()) {
          b.append("<th>").append(inline(h)).append("</th>");
        }
        b.append("</tr>\n");
        for (List<String> r : t.rows()) {
          b.append("<tr>");
          for (int c = 0; c < r.size(); c++) {
            b.append(t.numeric().get(c) ? "<td class=\"n\">" : "<td>").append(inline(r.get(c))).append("</td>");
          }
          b.append("</tr>\n");
        }
        b.append("</table>\n");
      } else if (block instanceof Image i) {
        b.append("<p><img src=\"").append(escape(i.file())).append("\" alt=\"").append(escape(i.alt()))
            .append("\"></p>\n");
      }
    }
    return b.append("</body>\n</html>\n").toString();
  }

  private static String row(List<String> cells) {
    return "| " + String.join(" | ", cells) + " |\n";
  }

  private static String cellMd(String text) {
    return text.replace("|", "\\|");
  }

  /**
   * Escapes HTML, then turns {@code **…**} into {@code <strong>} and {@code `…`} spans into {@code
   * <code>}; an unpaired backtick stays.
   */
  private static String inline(String text) {
    String[] parts = escape(text).replaceAll("\\*\\*(.+?)\\*\\*", "<strong>$1</strong>").split("`", -1);
    int paired = (parts.length - 1) / 2 * 2;
    StringBuilder b = new StringBuilder(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      b.append(i > paired ? "`" : i % 2 == 1 ? "<code>" : "</code>").append(parts[i]);
    }
    return b.toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
