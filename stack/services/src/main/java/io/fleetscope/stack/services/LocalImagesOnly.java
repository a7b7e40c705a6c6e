package io.fleetscope.stack.services;

import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.ImagePullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers' image pull policy for FleetScope (set in {@code testcontainers.properties}):
 * never pull. Our images are built on this machine ({@code deploy/images/build.sh}) and no public
 * registry is needed; a missing image is an error that says how to build it.
 */
public final class LocalImagesOnly implements ImagePullPolicy {
  @Override
  public boolean shouldPull(DockerImageName imageName) {
    try {
      DockerClientFactory.lazyClient().inspectImageCmd(imageName.asCanonicalNameString()).exec();
      return false;
    } catch (NotFoundException e) {
      throw new IllegalStateException("image " + imageName.asCanonicalNameString()
          + " is not on this Docker daemon and is never pulled: build it with deploy/images/build.sh");
    }
  }
}
