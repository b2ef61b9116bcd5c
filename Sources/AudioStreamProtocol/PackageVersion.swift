/// The package's version, defined here once: `audiostream --version` and `audiostreamd --version` print it.
public let packageVersion = "0.1.0"
