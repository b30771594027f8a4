"""Apple toolchains: xcodebuild, swift build / swift test."""
