/// The version of this build of photosd, `photos` and the `Photos` library: what `--version`
/// prints. Raised with each release that lands (CHANGELOG.md says what each brought).
public enum PhotosVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.27.0"
}
