package io.iam.bench.cli.options;

import java.util.Map;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's defaults for the options it takes from the mixins of this package: a table of option
 * name → default text, read by picocli as the command's default value provider.
 *
 * <p>The mixins ({@link RecordsOption}, {@link MemtableOption}, …) declare each shared option once,
 * with its name, converter and description, but without an annotation {@code defaultValue}: the same
 * option has a different default in each command ({@code --memtable} is 64MiB in {@code load}, 2MiB
 * in {@code compare}, 64KiB in {@code draw-tree}). Each command that uses them names a subclass in
 * {@code @Command(defaultValueProvider = ...)} that passes its own table:
 *
 * <pre>{@code
 * static final class Defaults extends OptionDefaults {
 *   Defaults() {
 *     super(Map.of("--records", "1000000", "--memtable", "64MiB"));
 *   }
 * }
 * }</pre>
 *
 * <p>picocli then parses the default text like a value given on the command line (through the
 * option's converter, so sizes read as {@code 64MiB}), and shows it unchanged where the description
 * says {@code ${DEFAULT-VALUE}}. An option the table does not name keeps its annotation default, if it
 * has one: the table is for the mixins' options only.
 */
public class OptionDefaults implements IDefaultValueProvider {

  private final Map<String, String> defaults;

  /**
   * @param defaults default text by the option's long name, e.g. {@code "--memtable" → "64MiB"}
   */
  protected OptionDefaults(Map<String, String> defaults) {
    this.defaults = Map.copyOf(defaults);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    return arg instanceof OptionSpec option ? defaults.get(option.longestName()) : null;
  }

  /** The options this table gives a default. */
  public Set<String> names() {
    return defaults.keySet();
  }
}
