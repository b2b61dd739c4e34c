package io.iam.bench.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.bench.cli.IamCommand;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options the commands take from the mixins of this package: each command keeps its own
 * defaults, parsed and shown in {@code --help}, and no command is left without one.
 */
class SharedOptionsTest {

  private static final long KIB = 1L << 10;
  private static final long MIB = 1L << 20;

  /** The arguments a command needs before it parses: its required options. */
  private static final Map<String, List<String>> REQUIRED = Map.of(
      "load", List.of("--tree", "leveled"),
      "ycsb", List.of("--engine", "leveled", "--workload", "a"),
      "compare", List.of("--out", "report"),
      "draw-tree", List.of("--out", "tree.png"),
      "host-experiment", List.of("--host", "asterixdb"));

  /** A documented default: the value the option parses to when not given, and the text {@code --help} shows. */
  private record Default(Object value, String shown) {}

  private static Default shown(Object value, String text) {
    return new Default(value, text);
  }

  /** A switch, off unless given, or an option whose default is a rule its description states: no text. */
  private static Default none(Object value) {
    return new Default(value, null);
  }

  /** Per command, every option it takes from a mixin of this package, with its documented default. */
  private static Map<String, Map<String, Default>> documented() {
    Map<String, Map<String, Default>> d = new LinkedHashMap<>();
    d.put("load", ordered(
        "--records", shown(1_000_000L, "1000000"),
        "--value-size", shown(KIB, "1KiB"),
        "--memtable", shown(64 * MIB, "64MiB"),
        "--cache", shown(256 * MIB, "256MiB"),
        "--file-size", none(null),
        "--level-base", none(null),
        "--threads", shown(1, "1"),
        "--seed", shown(42L, "42"),
        "--json", none(false),
        "--no-progress", none(false)));
    d.put("ycsb", ordered(
        "--records", shown(100_000L, "100000"),
        "--threads", shown(1, "1"),
        "--memtable", shown(64 * MIB, "64MiB"),
        "--cache", shown(256 * MIB, "256MiB"),
        "--json", none(false),
        "--no-progress", none(false)));
    d.put("compare", ordered(
        "--records", shown(50_000L, "50000"),
        "--threads", shown(1, "1"),
        "--memtable", shown(2 * MIB, "2MiB"),
        "--cache", shown(8 * MIB, "8MiB"),
        "--no-progress", none(false)));
    d.put("projections", ordered(
        "--seed", shown(42L, "42"),
        "--memtable", shown(256 * KIB, "256KiB"),
        "--cache", shown(MIB, "1MiB"),
        "--file-size", none(null),
        "--level-base", none(null),
        "--threads", shown(1, "1"),
        "--json", none(false),
        "--no-progress", none(false)));
    d.put("draw-tree", ordered(
        "--records", shown(20_000L, "20000"),
        "--value-size", shown(200L, "200"),
        "--memtable", shown(64 * KIB, "64KiB")));
    d.put("simulate", ordered(
        "--seed", shown(42L, "42"),
        "--json", none(false),
        "--no-progress", none(false)));
    d.put("simulate-tree", ordered(
        "--seed", shown(42L, "42"),
        "--json", none(false)));
    d.put("host-experiment", ordered(
        "--json", none(false),
        "--no-progress", none(false)));
    return d;
  }

  @Test
  void everyCommandParsesAndShowsItsOwnDefaults() {
    Map<String, Map<String, Default>> documented = documented();
    assertEquals(commandsWithMixins(), documented.keySet(), "commands that take options from " + pkg());
    for (Map.Entry<String, Map<String, Default>> command : documented.entrySet()) {
      String name = command.getKey();
      CommandSpec spec = parsed(name);
      assertEquals(new TreeSet<>(command.getValue().keySet()), mixinOptions(spec), name + ": options from mixins");
      String help = spec.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
      for (Map.Entry<String, Default> option : command.getValue().entrySet()) {
        OptionSpec o = spec.findOption(option.getKey());
        Default expected = option.getValue();
        String what = name + " " + option.getKey();
        assertEquals(expected.value(), o.getValue(), what + " parsed without the option");
        assertEquals(expected.shown(), fromTable(spec, o), what + " in the command's table");
        if (expected.shown() != null) {
          assertEquals(expected.shown(), o.defaultValueString(), what + " default text");
          assertTrue(help.contains("Default: " + expected.shown() + "."), what + " in --help: " + help);
        }
      }
    }
  }

  @Test
  void everyMixinOptionOfEveryCommandHasADefault() {
    for (String name : commandsWithMixins()) {
      CommandSpec spec = parsed(name);
      Set<String> fromMixins = mixinOptions(spec);
      for (String option : fromMixins) {
        assertNull(missingDefault(spec, spec.findOption(option)), name + " " + option);
      }
      // The table names nothing but options the command takes from the mixins.
      if (spec.defaultValueProvider() instanceof OptionDefaults table) {
        assertTrue(fromMixins.containsAll(table.names()), name + ": table " + table.names() + ", mixin options "
            + fromMixins);
      }
    }
  }

  @Test
  void aCommandWithoutATableEntryIsCaught() {
    CommandSpec bare = new CommandLine(new Bare()).getCommandSpec();
    assertEquals("no default: add it to the command's OptionDefaults table",
        missingDefault(bare, bare.findOption("--memtable")));
    assertNull(missingDefault(bare, bare.findOption("--file-size")), "a rule is a default");
    assertNull(missingDefault(bare, bare.findOption("--json")), "a switch needs none");
  }

  /** A command that takes mixins of this package but gives them no defaults. */
  @Command(name = "bare")
  static final class Bare {
    @Mixin MemtableOption memtable = new MemtableOption();
    @Mixin LevelSizeOptions levels = new LevelSizeOptions();
    @Mixin JsonOption json = new JsonOption();
  }

  /**
   * Why an option a command takes from a mixin has no default, or null if it has one: a switch is off
   * unless given; an option whose description shows {@code ${DEFAULT-VALUE}} needs a value in the
   * command's table; any other states its default as a rule ("Default: the memtable size").
   */
  private static String missingDefault(CommandSpec spec, OptionSpec o) {
    if (o.arity().max() == 0) {
      return null;
    }
    String template = template(spec, o.longestName());
    if (template.contains("${DEFAULT-VALUE}")) {
      return fromTable(spec, o) != null ? null : "no default: add it to the command's OptionDefaults table";
    }
    return template.contains("Default: ") ? null : "its description states no default: " + template;
  }

  /** The description of a mixin option as written, before picocli fills in its variables. */
  private static String template(CommandSpec spec, String option) {
    for (CommandSpec mixin : spec.mixins().values()) {
      for (Field field : mixin.userObject().getClass().getDeclaredFields()) {
        Option annotation = field.getAnnotation(Option.class);
        if (annotation != null && List.of(annotation.names()).contains(option)) {
          return String.join(" ", annotation.description());
        }
      }
    }
    throw new AssertionError(option + " comes from no mixin");
  }

  /** The default text the command's table gives the option, or null. */
  private static String fromTable(CommandSpec spec, OptionSpec o) {
    try {
      return spec.defaultValueProvider() == null ? null : spec.defaultValueProvider().defaultValue(o);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aGivenValueWinsAndTheNextParseStartsFromTheDefaults() {
    CommandLine cl = IamCommand.newCommandLine();
    CommandSpec load = parsed(cl, "load", "--memtable", "4MiB", "--records", "7", "--seed", "3", "--json");
    assertEquals(4 * MIB, load.findOption("--memtable").<Long>getValue());
    assertEquals(7L, load.findOption("--records").<Long>getValue());
    assertEquals(3L, load.findOption("--seed").<Long>getValue());
    assertEquals(true, load.findOption("--json").<Boolean>getValue());

    CommandSpec again = parsed(cl, "load");
    assertEquals(64 * MIB, again.findOption("--memtable").<Long>getValue());
    assertEquals(1_000_000L, again.findOption("--records").<Long>getValue());
    assertEquals(42L, again.findOption("--seed").<Long>getValue());
    assertEquals(false, again.findOption("--json").<Boolean>getValue());
  }

  /** The subcommands of {@code iam} with at least one mixin of this package. */
  private static Set<String> commandsWithMixins() {
    Set<String> names = new TreeSet<>();
    IamCommand.newCommandLine().getSubcommands().forEach((name, cl) -> {
      if (!mixinOptions(cl.getCommandSpec()).isEmpty()) {
        names.add(name);
      }
    });
    return names;
  }

  /** The names of the options a command takes from the mixins of this package. */
  private static Set<String> mixinOptions(CommandSpec spec) {
    Set<String> names = new TreeSet<>();
    for (CommandSpec mixin : spec.mixins().values()) {
      if (mixin.userObject().getClass().getPackageName().equals(pkg())) {
        mixin.options().forEach(o -> names.add(o.longestName()));
      }
    }
    return names;
  }

  /** {@code iam <command>} parsed with its required options and {@code more}, not run. */
  private static CommandSpec parsed(String command, String... more) {
    return parsed(IamCommand.newCommandLine(), command, more);
  }

  private static CommandSpec parsed(CommandLine cl, String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(REQUIRED.getOrDefault(command, List.of()));
    args.addAll(List.of(more));
    cl.parseArgs(args.toArray(String[]::new));
    CommandLine sub = cl.getSubcommands().get(command);
    assertNotNull(sub, command);
    return sub.getCommandSpec();
  }

  private static Map<String, Default> ordered(Object... pairs) {
    Map<String, Default> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Default) pairs[i + 1]);
    }
    return m;
  }

  private static String pkg() {
    return SharedOptionsTest.class.getPackageName();
  }
}
