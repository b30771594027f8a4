""".NET filters: dotnet build / restore / pack / publish / msbuild, dotnet test (one file per
filter; `_msbuild.py` holds what they share)."""
