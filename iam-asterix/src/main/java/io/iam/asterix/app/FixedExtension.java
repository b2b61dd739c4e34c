package io.iam.asterix.app;

import java.util.List;
import org.apache.asterix.common.api.ExtensionId;
import org.apache.asterix.common.api.IExtension;
import org.apache.hyracks.algebricks.common.utils.Pair;

/** An AsterixDB extension of ours: a fixed id, and no arguments to configure. */
abstract class FixedExtension implements IExtension {

  private final ExtensionId id;

  FixedExtension(String name) {
    this.id = new ExtensionId(name, 1);
  }

  @Override
  public final ExtensionId getId() {
    return id;
  }

  /** Ours take no arguments; any given in a configuration are ignored. */
  @Override
  public final void configure(List<Pair<String, String>> args) {}
}
