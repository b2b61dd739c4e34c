package io.iam.asterix.app;

import java.util.ArrayList;
import java.util.List;
import org.apache.asterix.common.config.AsterixExtension;
import org.apache.asterix.hyracks.bootstrap.NCApplication;

/**
 * AsterixDB's node-controller application with IAM's merge policies installed. Set it as {@code
 * app.class} in the {@code [nc]} section of the cluster configuration, on every NC:
 *
 * <ul>
 *   <li>its persisted-resource registry knows every factory of {@code AsterixPolicies}, so indexes
 *       using them can be created and reopened ({@link IamPersistedResourceRegistry});
 *   <li>on the metadata node, {@link CompactionPolicyRegistrar} runs at each start-up and maps our
 *       policy names in {@code Metadata.CompactionPolicy}.
 * </ul>
 *
 * Everything else is AsterixDB's own {@link NCApplication}.
 */
public class IamNCApplication extends NCApplication {

  @Override
  protected void configurePersistedResourceRegistry() {
    ncServiceCtx.setPersistedResourceRegistry(new IamPersistedResourceRegistry());
  }

  /**
   * The configured extensions, with the registrar first: AsterixDB 0.9.8 refuses a metadata
   * extension that follows one providing its own tuple translators, but not one that precedes it.
   */
  @Override
  protected List<AsterixExtension> getExtensions() throws Exception {
    List<AsterixExtension> extensions = new ArrayList<>();
    extensions.add(new AsterixExtension(CompactionPolicyRegistrar.class.getName()));
    extensions.addAll(super.getExtensions());
    return extensions;
  }
}
