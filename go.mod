module github.com/gocolic/gocolic

go 1.24
