from yimao.launch import main

main()
