package io.iam.bench.cli;

import java.util.List;
import java.util.ServiceLoader;

/**
 * Commands that live outside {@code iam-bench}, found with {@link ServiceLoader}: a binding module
 * (iam-bench-hbase, ...) adds the commands that need its server's jars, and the {@code iam} script
 * runs those commands on that module's class path.
 */
public interface CommandProvider {

  /** The picocli command objects to add under {@code iam}. */
  List<Object> commands();

  /** Every provider's commands on the class path. */
  static List<Object> all() {
    List<Object> commands = new java.util.ArrayList<>();
    for (CommandProvider p : ServiceLoader.load(CommandProvider.class)) {
      commands.addAll(p.commands());
    }
    return commands;
  }
}
