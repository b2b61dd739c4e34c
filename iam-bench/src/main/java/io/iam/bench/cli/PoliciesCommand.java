package io.iam.bench.cli;

import io.iam.core.option.Option;
import io.iam.core.policy.MergePolicies;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code iam policies}: every registered policy, its summary and its options. */
@Command(
    name = "policies",
    mixinStandardHelpOptions = true,
    description = {"Lists the registered merge policies with their options (for --policy and -o).", ""})
public final class PoliciesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @picocli.CommandLine.Option(names = "--markdown",
      description = "Print each option table as Markdown instead of plain text.")
  boolean markdown;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      out.println(d.name() + (d.depthBounded() ? "  (depth-bounded)" : ""));
      out.println("  " + d.summary());
      out.println();
      if (markdown) {
        out.println(d.options().toMarkdown(""));
      } else {
        printTable(out, d.options().options());
        out.println();
      }
    }
    out.flush();
    return 0;
  }

  private static void printTable(PrintWriter out, List<Option<?>> options) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"key", "type", "default", "allowed", "meaning"});
    for (Option<?> o : options) {
      rows.add(new String[] {o.key(), o.type().name(), defaultText(o), o.describeBounds(), o.doc()});
    }
    int[] width = new int[4];
    for (String[] row : rows) {
      for (int i = 0; i < width.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder sb = new StringBuilder("  ");
      for (int i = 0; i < width.length; i++) {
        sb.append(String.format("%-" + width[i] + "s  ", row[i]));
      }
      out.println(sb.append(row[4]).toString().stripTrailing());
    }
  }

  private static <T extends Comparable<T>> String defaultText(Option<T> o) {
    return o.type().format(o.defaultValue());
  }
}
