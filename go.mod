module github.com/mdxrender/mdxrender

go 1.26.8

require github.com/spf13/cobra v1.10.2

require (
	github.com/disintegration/imaging v1.6.2 // indirect
	golang.org/x/image v0.30.0 // indirect
)

require (
	github.com/blezek/tga v0.0.0-20150626111426-80720cbc1017
	github.com/fogleman/fauxgl v0.0.0-20250110135958-abf826acbbbd
	github.com/fogleman/simplify v0.0.0-20170216171241-d32f302d5046 // indirect
	github.com/fsnotify/fsnotify v1.9.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/kettek/apng v0.0.0-20220823221153-ff692776a607
	github.com/klauspost/compress v1.20.4
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pelletier/go-toml/v2 v2.2.4
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/sagikazarmark/locafero v0.11.0 // indirect
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/sourcegraph/conc v0.3.1-0.20240121214520-5f936abd7ae8 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	github.com/spf13/cast v1.10.0 // indirect
	github.com/spf13/pflag v1.0.10
	github.com/spf13/viper v1.21.0
	github.com/subosito/gotenv v1.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.4
	golang.org/x/sys v0.46.0
	golang.org/x/term v0.44.0
	golang.org/x/text v0.28.0 // indirect
)
