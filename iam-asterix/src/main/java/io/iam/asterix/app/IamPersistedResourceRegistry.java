package io.iam.asterix.app;

import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import org.apache.asterix.app.io.PersistedResourceRegistry;

/**
 * AsterixDB's registry of the classes it may persist with an index, plus every factory in
 * {@link AsterixPolicies#all()}. Each index's local resource stores its merge-policy factory as a
 * class identifier; without this registration an NC can neither create nor reopen an index that
 * uses one of our policies ({@code IllegalStateException: Class … was not registered}).
 *
 * <p>Our identifiers are the factories' full class names, so they can never collide with
 * AsterixDB's own, which are simple class names ({@code PrefixMergePolicyFactory}). They are
 * written into every index's metadata on disk: renaming a factory class breaks existing datasets.
 */
public class IamPersistedResourceRegistry extends PersistedResourceRegistry {

  @Override
  protected void registerClasses() {
    super.registerClasses();
    for (IamMergePolicyFactory factory : AsterixPolicies.all()) {
      registeredClasses.put(identifier(factory.getClass()), factory.getClass());
    }
  }

  /** The identifier persisted for {@code factoryClass}. */
  static String identifier(Class<? extends IamMergePolicyFactory> factoryClass) {
    return factoryClass.getName();
  }
}
