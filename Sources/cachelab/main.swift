import CacheLabCLI

CacheLab.main()
