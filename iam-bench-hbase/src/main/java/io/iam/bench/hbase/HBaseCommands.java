package io.iam.bench.hbase;

import io.iam.bench.cli.CommandProvider;
import java.util.List;

/** The {@code iam} commands that need HBase's jars: {@code iam hbase-trees}. */
public final class HBaseCommands implements CommandProvider {

  @Override
  public List<Object> commands() {
    return List.of(new HBaseTreesCommand());
  }
}
