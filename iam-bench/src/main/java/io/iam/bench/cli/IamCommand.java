package io.iam.bench.cli;

import io.iam.bench.compare.CompareCommand;
import io.iam.bench.load.LoadCommand;
import io.iam.bench.projections.ProjectionsCommand;
import io.iam.bench.ycsb.YcsbCommand;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code iam} command: entry point of the shaded jar and of the {@code ./iam} launcher. */
@Command(
    name = "iam",
    mixinStandardHelpOptions = true,
    versionProvider = IamVersion.class,
    description = {
      "IAM is an append/merge LSM storage module: bounded-depth stack merge policies, a cost-model"
          + " simulator, an embeddable engine and adapters for Apache HBase and Apache AsterixDB.",
      ""
    },
    subcommands = {SimulateCommand.class, SimulateTreeCommand.class, PoliciesCommand.class, LoadCommand.class,
      YcsbCommand.class, ProjectionsCommand.class, CompareCommand.class, DrawTreeCommand.class, JmhCompareCommand.class,
      HostExperimentCommand.class,
      CommandLine.HelpCommand.class})
public final class IamCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(newCommandLine().execute(args));
  }

  /** The command line with IAM's error handling: user errors are one line on stderr, exit 2. */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new IamCommand());
    // Before the handlers: picocli gives them to the subcommands present when they are set.
    for (Object command : CommandProvider.all()) {
      cl.addSubcommand(command);
    }
    CliErrors errors = new CliErrors();
    cl.setParameterExceptionHandler(errors);
    cl.setExecutionExceptionHandler(errors);
    return cl;
  }

  /** Without a subcommand: print the usage to stderr and fail as a usage error. */
  @Override
  public Integer call() {
    CommandLine cl = spec.commandLine();
    cl.getErr().println("iam: missing command (" + commandNames(cl) + ")");
    cl.usage(cl.getErr());
    return cl.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The subcommands but {@code help}, as a list for people: "simulate, policies or load". */
  static String commandNames(CommandLine cl) {
    List<String> names = cl.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
    return names.size() < 2
        ? String.join("", names)
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
  }
}
